//! Certificates as the IC makes them: a hash tree with `/time`, `/request_status` and the
//! subnet's `/subnet/<id>/…` entries, its root hash signed with a BLS12-381 key (G1 signature,
//! G2 key), no delegation (the emulator is the root subnet). Query replies are signed by the
//! subnet's one node with its Ed25519 key, as the IC's HTTP interface specifies: over the
//! representation-independent hash of the reply, the request ID and the time, with the
//! `ic-response` domain separator (computed here by hand, independently of the agent).

use candid::Principal;
use ic_agent::hash_tree::{empty, fork, label, leaf, HashTree};
use ic_agent::identity::BasicIdentity;
use ic_agent::{Certificate, Identity};
use ic_verify_bls_signature::PrivateKey;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// DER prefix of an IC BLS root key (OIDs 1.3.6.1.4.1.44668.5.3.1.2.1 and .5.3.2.1).
const DER_PREFIX: [u8; 37] = [
    0x30, 0x81, 0x82, 0x30, 0x1d, 0x06, 0x0d, 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0xdc, 0x7c, 0x05,
    0x03, 0x01, 0x02, 0x01, 0x06, 0x0c, 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0xdc, 0x7c, 0x05, 0x03,
    0x02, 0x01, 0x03, 0x61, 0x00,
];

/// The subnet's BLS signing key (its DER public key is the root key) and its node's Ed25519 key.
pub struct Signer {
    key: PrivateKey,
    node: BasicIdentity,
}

impl Signer {
    /// A key from a small seed (big-endian scalar, far below the group order).
    pub fn from_seed(seed: u8) -> Self {
        let mut bytes = [0u8; 32];
        bytes[31] = seed.max(1);
        bytes[30] = 0x5a;
        let mut node_secret = [0x4e; 32];
        node_secret[31] = seed;
        Self {
            key: PrivateKey::deserialize(&bytes).expect("small scalar is valid"),
            node: BasicIdentity::from_raw_key(&node_secret),
        }
    }

    /// The subnet's ID: the self-authenticating principal of the root key, which is what the
    /// agent expects of a certificate without delegation (one from the root subnet).
    pub fn subnet_id(&self) -> Principal {
        Principal::self_authenticating(self.root_key_der())
    }

    /// The node's ID: the self-authenticating principal of its public key.
    pub fn node_id(&self) -> Principal {
        Principal::self_authenticating(self.node_key_der())
    }

    /// The node's Ed25519 public key, DER-wrapped (44 bytes), as `/subnet/<id>/node/<node>/public_key`
    /// holds it.
    pub fn node_key_der(&self) -> Vec<u8> {
        self.node
            .public_key()
            .expect("an Ed25519 identity has a key")
    }

    /// The node's signature of a query reply answered at `timestamp_ns`: Ed25519 over
    /// `"\x0Bic-response" · hash_of_map(reply fields, request_id, timestamp)`.
    pub fn sign_query(
        &self,
        outcome: &Outcome,
        request_id: &[u8],
        timestamp_ns: u64,
    ) -> NodeSignature {
        let mut msg = b"\x0Bic-response".to_vec();
        msg.extend_from_slice(&query_response_hash(outcome, request_id, timestamp_ns));
        let signature = self
            .node
            .sign_arbitrary(&msg)
            .ok()
            .and_then(|s| s.signature)
            .expect("Ed25519 signing does not fail");
        NodeSignature {
            timestamp: timestamp_ns,
            signature,
            identity: self.node_id(),
        }
    }

    /// The subtree `/subnet/<id>/…`: the subnet's public key, its canister ranges (every
    /// canister ID: the emulator is the only subnet), its type and its node's public key.
    pub fn subnet_entries(&self) -> Vec<Leaf> {
        let sid = self.subnet_id().as_slice().to_vec();
        let path = |rest: &[&[u8]]| {
            let mut p = vec![b"subnet".to_vec(), sid.clone()];
            p.extend(rest.iter().map(|l| l.to_vec()));
            p
        };
        let all: Vec<(Principal, Principal)> = vec![(
            Principal::from_slice(&[0; 10]),
            Principal::from_slice(&[0xff; 10]),
        )];
        let ranges = serde_cbor::to_vec(&all).expect("ranges serialize");
        let node = self.node_id().as_slice().to_vec();
        vec![
            (path(&[b"canister_ranges"]), ranges),
            (path(&[b"node", &node, b"public_key"]), self.node_key_der()),
            (path(&[b"public_key"]), self.root_key_der()),
            (path(&[b"type"]), b"system".to_vec()),
        ]
    }

    /// The public key, DER-wrapped as the agent expects (133 bytes).
    pub fn root_key_der(&self) -> Vec<u8> {
        let mut der = DER_PREFIX.to_vec();
        der.extend_from_slice(&self.key.public_key().serialize());
        der
    }

    /// Signs `tree` into CBOR certificate bytes.
    pub fn certify(&self, tree: HashTree<Vec<u8>>) -> Vec<u8> {
        let mut msg = b"\x0Dic-state-root".to_vec();
        msg.extend_from_slice(&tree.digest());
        let signature = self.key.sign(&msg).serialize().to_vec();
        let cert = Certificate {
            tree,
            signature,
            delegation: None,
        };
        serde_cbor::to_vec(&cert).expect("certificate serializes")
    }
}

/// Unsigned LEB128.
pub fn leb128(mut v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

/// The final state of a call.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// Replied with Candid bytes.
    Reply(Vec<u8>),
    /// Rejected.
    Reject {
        /// Reject code (1..5).
        code: u64,
        /// Message.
        message: String,
        /// `IC0xyz`.
        error_code: String,
    },
}

fn status_subtree(outcome: &Outcome) -> HashTree<Vec<u8>> {
    // Labels must be strictly increasing within each fork chain.
    match outcome {
        Outcome::Reply(bytes) => fork(
            label("reply", leaf(bytes.clone())),
            label("status", leaf(b"replied".to_vec())),
        ),
        Outcome::Reject {
            code,
            message,
            error_code,
        } => fork(
            fork(
                label("error_code", leaf(error_code.as_bytes().to_vec())),
                label("reject_code", leaf(leb128(*code))),
            ),
            fork(
                label("reject_message", leaf(message.as_bytes().to_vec())),
                label("status", leaf(b"rejected".to_vec())),
            ),
        ),
    }
}

/// A leaf of a certified tree: its path of labels and its value.
pub type Leaf = (Vec<Vec<u8>>, Vec<u8>);

/// The tree of a certificate: `/request_status/<id>/...` (if given), the `extra` leaves (e.g.
/// [`Signer::subnet_entries`]) and `/time`.
pub fn tree(
    request: Option<(&[u8], &Outcome)>,
    extra: Vec<Leaf>,
    time_ns: u64,
) -> HashTree<Vec<u8>> {
    let mut rest: BTreeMap<Vec<Vec<u8>>, Vec<u8>> = extra.into_iter().collect();
    rest.insert(vec![b"time".to_vec()], leb128(time_ns));
    let rest = subtree(&rest.into_iter().collect::<Vec<_>>());
    match request {
        Some((id, outcome)) => fork(
            label(
                "request_status",
                label(id.to_vec(), status_subtree(outcome)),
            ),
            rest,
        ),
        None => rest,
    }
}

/// A labeled tree of sorted `(path, value)` leaves (every path non-empty, none a prefix of
/// another): siblings in label order under balanced forks, as the lookups require.
fn subtree(leaves: &[Leaf]) -> HashTree<Vec<u8>> {
    let mut groups: Vec<(&[u8], Vec<Leaf>)> = Vec::new();
    for (path, value) in leaves {
        let (first, rest) = path.split_first().expect("a non-empty path");
        match groups.last_mut() {
            Some((l, g)) if *l == first.as_slice() => g.push((rest.to_vec(), value.clone())),
            _ => groups.push((first, vec![(rest.to_vec(), value.clone())])),
        }
    }
    let nodes: Vec<HashTree<Vec<u8>>> = groups
        .into_iter()
        .map(|(l, g)| {
            let below = match g.as_slice() {
                [(p, v)] if p.is_empty() => leaf(v.clone()),
                _ => subtree(&g),
            };
            label(l.to_vec(), below)
        })
        .collect();
    balanced(nodes)
}

fn balanced(mut nodes: Vec<HashTree<Vec<u8>>>) -> HashTree<Vec<u8>> {
    match nodes.len() {
        0 => empty(),
        1 => nodes.pop().expect("one node"),
        n => {
            let right = nodes.split_off(n / 2);
            fork(balanced(nodes), balanced(right))
        }
    }
}

/// A node's signature of a query reply, an entry of a query response's `signatures` field.
pub struct NodeSignature {
    /// When the node signed, nanoseconds since 1970.
    pub timestamp: u64,
    /// The Ed25519 signature.
    pub signature: Vec<u8>,
    /// The node's ID.
    pub identity: Principal,
}

impl NodeSignature {
    /// The CBOR map `{timestamp, signature, identity}`.
    pub fn to_cbor(&self) -> serde_cbor::Value {
        use serde_cbor::Value;
        let mut m = BTreeMap::new();
        m.insert(
            Value::Text("timestamp".into()),
            Value::Integer(self.timestamp.into()),
        );
        m.insert(
            Value::Text("signature".into()),
            Value::Bytes(self.signature.clone()),
        );
        m.insert(
            Value::Text("identity".into()),
            Value::Bytes(self.identity.as_slice().to_vec()),
        );
        Value::Map(m)
    }
}

/// A value of the representation-independent hash (the IC interface spec, "Request ids").
enum Hashed<'a> {
    Bytes(&'a [u8]),
    Nat(u64),
    Map(Vec<(&'a str, Hashed<'a>)>),
}

fn hash_of(v: &Hashed) -> [u8; 32] {
    match v {
        Hashed::Bytes(b) => Sha256::digest(b).into(),
        Hashed::Nat(n) => Sha256::digest(leb128(*n)).into(),
        Hashed::Map(fields) => {
            let mut pairs: Vec<Vec<u8>> = fields
                .iter()
                .map(|(k, v)| {
                    let mut pair = Sha256::digest(k.as_bytes()).to_vec();
                    pair.extend_from_slice(&hash_of(v));
                    pair
                })
                .collect();
            pairs.sort();
            Sha256::digest(pairs.concat()).into()
        }
    }
}

/// `hash_of_map` of the signed fields of a query response (the spec's "Query call" section).
fn query_response_hash(outcome: &Outcome, request_id: &[u8], timestamp_ns: u64) -> [u8; 32] {
    let mut fields = vec![
        ("request_id", Hashed::Bytes(request_id)),
        ("timestamp", Hashed::Nat(timestamp_ns)),
    ];
    match outcome {
        Outcome::Reply(arg) => {
            fields.push(("status", Hashed::Bytes(b"replied")));
            fields.push(("reply", Hashed::Map(vec![("arg", Hashed::Bytes(arg))])));
        }
        Outcome::Reject {
            code,
            message,
            error_code,
        } => {
            fields.push(("status", Hashed::Bytes(b"rejected")));
            fields.push(("reject_code", Hashed::Nat(*code)));
            fields.push(("reject_message", Hashed::Bytes(message.as_bytes())));
            fields.push(("error_code", Hashed::Bytes(error_code.as_bytes())));
        }
    }
    hash_of(&Hashed::Map(fields))
}
