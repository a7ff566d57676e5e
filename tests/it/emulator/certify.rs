//! Certificates as the IC makes them: a hash tree with `/time` and `/request_status`, its root
//! hash signed with a BLS12-381 key (G1 signature, G2 key), no delegation.

use ic_agent::hash_tree::{fork, label, leaf, HashTree};
use ic_agent::Certificate;
use ic_verify_bls_signature::PrivateKey;

/// DER prefix of an IC BLS root key (OIDs 1.3.6.1.4.1.44668.5.3.1.2.1 and .5.3.2.1).
const DER_PREFIX: [u8; 37] = [
    0x30, 0x81, 0x82, 0x30, 0x1d, 0x06, 0x0d, 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0xdc, 0x7c, 0x05,
    0x03, 0x01, 0x02, 0x01, 0x06, 0x0c, 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0xdc, 0x7c, 0x05, 0x03,
    0x02, 0x01, 0x03, 0x61, 0x00,
];

/// A BLS signing key and its DER public key.
pub struct Signer {
    key: PrivateKey,
}

impl Signer {
    /// A key from a small seed (big-endian scalar, far below the group order).
    pub fn from_seed(seed: u8) -> Self {
        let mut bytes = [0u8; 32];
        bytes[31] = seed.max(1);
        bytes[30] = 0x5a;
        Self {
            key: PrivateKey::deserialize(&bytes).expect("small scalar is valid"),
        }
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

/// The tree of a certificate: `/request_status/<id>/...` (if given) and `/time`.
pub fn tree(request: Option<(&[u8], &Outcome)>, time_ns: u64) -> HashTree<Vec<u8>> {
    let time = label("time", leaf(leb128(time_ns)));
    match request {
        Some((id, outcome)) => fork(
            label(
                "request_status",
                label(id.to_vec(), status_subtree(outcome)),
            ),
            time,
        ),
        None => time,
    }
}
