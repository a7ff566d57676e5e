//! An in-process emulator of the Internet Computer for mo-mem's tests and benchmarks.
//!
//! It serves the HTTP endpoints an unmodified ic-agent 0.49 uses (`/api/v2/status`,
//! `/api/v4/canister/<id>/call`, `/api/v3/canister/<id>/read_state`, `/api/v3/canister/<id>/query`),
//! certifies every reply with a BLS key whose public key the agent is given, signs query replies
//! with its node's Ed25519 key and serves that key under `/subnet/<id>/node/…` (so the agent's
//! query-signature check runs as against the IC), and implements the management canister's
//! snapshot methods with the IC's rules: controllers, the 10-snapshot limit, replace semantics,
//! the 2,000,000-byte slice limit, offset bounds. Faults can be injected (HTTP 429/503, transient
//! rejects, 202 + polling, stale certificates, short replies, a hook on every slice read).
//! Serve it on loopback with [`http::serve`], or plug it into the agent in process
//! (`Emulator::transport`, with the CLI driver and the tests' inspection methods in
//! `tests/it/emulator/harness.rs`, which only the tests include: the `ic_pull` benchmark
//! includes this folder without it).

pub mod certify;
pub mod data;
pub mod http;

use candid::Principal;
use certify::{Outcome, Signer};
pub use data::Data;
use ic_management_canister_types::{
    CanisterIdRecord, CanisterStatusType, ChunkHash, DeleteCanisterSnapshotArgs,
    ReadCanisterSnapshotDataArgs, ReadCanisterSnapshotDataResult, ReadCanisterSnapshotMetadataArgs,
    ReadCanisterSnapshotMetadataResult, Snapshot, SnapshotDataKind, SnapshotMetadataGlobal,
    SnapshotSource, TakeCanisterSnapshotArgs,
};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The IC's slice limit.
pub const MAX_SLICE: u64 = 2_000_000;
/// The IC's snapshot count limit.
pub const MAX_SNAPSHOTS: usize = 10;

/// A canister's state as the snapshot methods see it.
#[derive(Clone, Debug)]
pub struct Canister {
    /// Who may control it.
    pub controllers: Vec<Principal>,
    /// Running or stopped.
    pub status: CanisterStatusType,
    /// The installed module (empty: no code).
    pub module: Data,
    /// Main memory.
    pub memory: Data,
    /// Stable memory.
    pub stable: Data,
    /// Chunk-store entries.
    pub chunks: Vec<Vec<u8>>,
    /// Canister version.
    pub version: u64,
    /// Whether anyone may read its snapshots (snapshot_visibility = public).
    pub public_snapshots: bool,
    /// The canister-hosted protocol of motoko/main.mo, if the canister speaks it.
    pub hosted: Option<Hosted>,
    /// The mutable globals a snapshot records.
    pub globals: Vec<Option<SnapshotMetadataGlobal>>,
    /// A real canister run on mo-mem's canister runner: snapshots copy its state.
    pub live: Option<Live>,
}

/// A canister running on `mo_mem::runtime`, shared with the test that drives it.
#[derive(Clone)]
pub struct Live(pub Arc<Mutex<mo_mem::runtime::Canister>>);

impl std::fmt::Debug for Live {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Live(runtime canister)")
    }
}

impl Canister {
    /// Copies module, memories and globals from the live canister, if there is one.
    pub fn sync_from_live(&mut self) {
        let Some(live) = &self.live else { return };
        let rt = live.0.lock().unwrap();
        self.module = Data::bytes(rt.wasm_module().to_vec());
        self.memory = Data::bytes(rt.main_memory().to_vec());
        self.stable = Data::bytes(rt.stable_memory().to_vec());
        self.globals = rt.mutable_globals().into_iter().map(global_to_ic).collect();
    }
}

/// The IC's form of a runtime global.
pub fn global_to_ic(g: mo_mem::runtime::GlobalValue) -> Option<SnapshotMetadataGlobal> {
    use mo_mem::runtime::GlobalValue as G;
    match g {
        G::I32(v) => Some(SnapshotMetadataGlobal::I32(v)),
        G::I64(v) => Some(SnapshotMetadataGlobal::I64(v)),
        G::F32(v) => Some(SnapshotMetadataGlobal::F32(v)),
        G::F64(v) => Some(SnapshotMetadataGlobal::F64(v)),
        G::V128(v) => Some(SnapshotMetadataGlobal::V128(candid::Nat::from(v))),
        G::Unknown => None,
    }
}

/// The state `motoko/main.mo` keeps: snapshots of main memory copied into Regions.
#[derive(Clone, Debug, Default)]
pub struct Hosted {
    /// `(id, taken_at, copy of main memory)`, oldest first.
    pub snapshots: Vec<(u64, u64, Data)>,
    /// The next ID.
    pub next_id: u64,
}

/// A stored snapshot.
#[derive(Clone, Debug)]
pub struct StoredSnapshot {
    /// ID: 8-byte big-endian counter + canister principal.
    pub id: Vec<u8>,
    /// Nanoseconds since 1970.
    pub taken_at: u64,
    /// The canister's state when taken.
    pub state: Canister,
}

impl StoredSnapshot {
    fn total_size(&self) -> u64 {
        self.state.module.len()
            + self.state.memory.len()
            + self.state.stable.len()
            + self
                .state
                .chunks
                .iter()
                .map(|c| c.len() as u64)
                .sum::<u64>()
    }
}

/// Injected faults.
#[derive(Default)]
pub struct Faults {
    /// HTTP statuses answered (one each) to the next calls instead of handling them.
    pub http_errors: Vec<u16>,
    /// The next this-many snapshot data reads are rejected as transient (IC0210).
    pub transient_rejects: u32,
    /// Answer calls with 202 and make the agent poll read_state.
    pub accept_202: bool,
    /// Stamp certificates 400 s in the past.
    pub stale_time: bool,
    /// Return slices one byte short.
    pub short_slices: bool,
    /// Sign query replies with a corrupted signature (one bit flipped).
    pub forged_query_signatures: bool,
}

/// A callback run on every slice read (with the 1-based count), under no lock.
pub type SliceHook = Arc<dyn Fn(u64, &Emulator) + Send + Sync>;

pub(crate) struct State {
    pub(crate) canisters: BTreeMap<Principal, Canister>,
    pub(crate) snapshots: BTreeMap<Principal, Vec<StoredSnapshot>>,
    counters: BTreeMap<Principal, u64>,
    next_canister: u64,
    completed: HashMap<Vec<u8>, Outcome>,
}

/// Counters for assertions and the benchmark.
#[derive(Default)]
pub struct Stats {
    /// Slice (and chunk) reads served successfully.
    pub slice_reads: AtomicU64,
    /// Bytes served by slice reads.
    pub bytes_served: AtomicU64,
    /// Largest slice size requested.
    pub max_slice_requested: AtomicU64,
    /// Calls received.
    pub calls: AtomicU64,
    /// Calls answered with an injected HTTP error or transient reject.
    pub faults_injected: AtomicU64,
}

/// The emulator. Cheap to clone; clones share state.
#[derive(Clone)]
pub struct Emulator {
    pub(crate) state: Arc<Mutex<State>>,
    signer: Arc<Signer>,
    /// Injected faults (tests change them at will).
    pub faults: Arc<Mutex<Faults>>,
    /// Counters.
    pub stats: Arc<Stats>,
    pub(crate) hook: Arc<Mutex<Option<SliceHook>>>,
}

impl std::fmt::Debug for Emulator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Emulator")
    }
}

/// Nanoseconds since 1970 by the local clock.
pub fn now_ns() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}

fn reject(code: u64, error_code: &str, message: impl Into<String>) -> Outcome {
    Outcome::Reject {
        code,
        message: message.into(),
        error_code: error_code.into(),
    }
}

impl Default for Emulator {
    fn default() -> Self {
        Self::new()
    }
}

impl Emulator {
    /// An empty IC whose root key is derived from seed 1.
    pub fn new() -> Self {
        Self::with_key_seed(1)
    }

    /// An empty IC with a root key derived from `seed`.
    pub fn with_key_seed(seed: u8) -> Self {
        Self {
            state: Arc::new(Mutex::new(State {
                canisters: BTreeMap::new(),
                snapshots: BTreeMap::new(),
                counters: BTreeMap::new(),
                next_canister: 1,
                completed: HashMap::new(),
            })),
            signer: Arc::new(Signer::from_seed(seed)),
            faults: Arc::new(Mutex::new(Faults::default())),
            stats: Arc::new(Stats::default()),
            hook: Arc::new(Mutex::new(None)),
        }
    }

    /// The root key (DER) to give the agent.
    pub fn root_key(&self) -> Vec<u8> {
        self.signer.root_key_der()
    }

    /// Installs a canister and returns its ID.
    pub fn install(&self, canister: Canister) -> Principal {
        let mut st = self.state.lock().unwrap();
        let n = st.next_canister;
        st.next_canister += 1;
        let id = Principal::from_slice(&[0, 0, 0, 0, 0, 0, (n >> 8) as u8, n as u8, 1, 1]);
        st.canisters.insert(id, canister);
        id
    }

    /// A stopped canister controlled by `controller` with the given memories and module.
    pub fn simple_canister(
        controller: Principal,
        module: Vec<u8>,
        memory: Data,
        stable: Data,
    ) -> Canister {
        Canister {
            controllers: vec![controller],
            status: CanisterStatusType::Stopped,
            module: Data::bytes(module),
            memory,
            stable,
            chunks: vec![],
            version: 1,
            public_snapshots: false,
            hosted: None,
            globals: vec![],
            live: None,
        }
    }

    /// Takes a snapshot directly (test setup), replacing `replace` if given.
    pub fn take_direct(&self, id: Principal, replace: Option<Vec<u8>>) -> Vec<u8> {
        let mut st = self.state.lock().unwrap();
        match take(&mut st, id, replace) {
            Ok(s) => s.id,
            Err(o) => panic!("take failed: {o:?}"),
        }
    }

    /// Handles one HTTP request: `(status, body)`.
    pub fn handle(&self, method: &str, path: &str, body: &[u8]) -> (u16, Vec<u8>) {
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        match (method, parts.as_slice()) {
            ("GET", ["api", "v2", "status"]) => (200, self.status_body()),
            ("POST", ["api", "v4", "canister", ecid, "call"]) => self.handle_call(ecid, body),
            ("POST", ["api", "v3", "canister", _, "read_state"]) => self.handle_read_state(body),
            ("POST", ["api", "v3", "canister", _, "query"]) => self.handle_query(body),
            _ => (404, format!("no route for {method} {path}").into_bytes()),
        }
    }

    fn status_body(&self) -> Vec<u8> {
        use serde_cbor::Value;
        let mut m = BTreeMap::new();
        m.insert(
            Value::Text("root_key".into()),
            Value::Bytes(self.root_key()),
        );
        m.insert(
            Value::Text("impl_version".into()),
            Value::Text("mo-mem-emulator".into()),
        );
        m.insert(
            Value::Text("replica_health_status".into()),
            Value::Text("healthy".into()),
        );
        serde_cbor::to_vec(&Value::Map(m)).unwrap()
    }

    fn cert_time(&self) -> u64 {
        let stale = self.faults.lock().unwrap().stale_time;
        if stale {
            now_ns() - 400_000_000_000
        } else {
            now_ns()
        }
    }

    fn handle_call(&self, ecid: &str, body: &[u8]) -> (u16, Vec<u8>) {
        use ic_transport_types::{Envelope, EnvelopeContent};
        self.stats.calls.fetch_add(1, Ordering::Relaxed);
        {
            let mut f = self.faults.lock().unwrap();
            if !f.http_errors.is_empty() {
                let status = f.http_errors.remove(0);
                self.stats.faults_injected.fetch_add(1, Ordering::Relaxed);
                return (status, b"injected fault".to_vec());
            }
        }
        let env: Envelope = match serde_cbor::from_slice(body) {
            Ok(e) => e,
            Err(e) => return (400, format!("bad envelope: {e}").into_bytes()),
        };
        let content = env.content.into_owned();
        let request_id = content.to_request_id();
        let EnvelopeContent::Call {
            sender,
            canister_id,
            method_name,
            arg,
            ..
        } = content
        else {
            return (400, b"not a call".to_vec());
        };
        let outcome = if canister_id == Principal::management_canister() {
            self.management(ecid, sender, &method_name, &arg)
        } else {
            self.hosted_call(canister_id, sender, &method_name, &arg, false)
        };
        let rid = request_id.as_slice().to_vec();
        let accept = self.faults.lock().unwrap().accept_202;
        if accept {
            self.state.lock().unwrap().completed.insert(rid, outcome);
            return (202, vec![]);
        }
        let cert = self.signer.certify(certify::tree(
            Some((&rid, &outcome)),
            vec![],
            self.cert_time(),
        ));
        use serde_cbor::Value;
        let mut m = BTreeMap::new();
        m.insert(Value::Text("status".into()), Value::Text("replied".into()));
        m.insert(Value::Text("certificate".into()), Value::Bytes(cert));
        (200, serde_cbor::to_vec(&Value::Map(m)).unwrap())
    }

    fn handle_query(&self, body: &[u8]) -> (u16, Vec<u8>) {
        use ic_transport_types::{Envelope, EnvelopeContent};
        use serde_cbor::Value;
        let env: Envelope = match serde_cbor::from_slice(body) {
            Ok(e) => e,
            Err(e) => return (400, format!("bad envelope: {e}").into_bytes()),
        };
        let content = env.content.into_owned();
        let request_id = content.to_request_id();
        let EnvelopeContent::Query {
            sender,
            canister_id,
            method_name,
            arg,
            ..
        } = content
        else {
            return (400, b"not a query".to_vec());
        };
        let outcome = self.hosted_call(canister_id, sender, &method_name, &arg, true);
        let mut signature =
            self.signer
                .sign_query(&outcome, request_id.as_slice(), self.cert_time());
        if self.faults.lock().unwrap().forged_query_signatures {
            signature.signature[0] ^= 1;
        }
        let t = |s: &str| Value::Text(s.into());
        let mut m = BTreeMap::new();
        m.insert(t("signatures"), Value::Array(vec![signature.to_cbor()]));
        match outcome {
            Outcome::Reply(bytes) => {
                let mut reply = BTreeMap::new();
                reply.insert(t("arg"), Value::Bytes(bytes));
                m.insert(t("status"), t("replied"));
                m.insert(t("reply"), Value::Map(reply));
            }
            Outcome::Reject {
                code,
                message,
                error_code,
            } => {
                m.insert(t("status"), t("rejected"));
                m.insert(t("reject_code"), Value::Integer(code as i128));
                m.insert(t("reject_message"), Value::Text(message));
                m.insert(t("error_code"), Value::Text(error_code));
            }
        }
        (200, serde_cbor::to_vec(&Value::Map(m)).unwrap())
    }

    /// The canister-hosted protocol of motoko/main.mo, as that canister would answer.
    fn hosted_call(
        &self,
        cid: Principal,
        sender: Principal,
        method: &str,
        arg: &[u8],
        query: bool,
    ) -> Outcome {
        let trap = |msg: &str| {
            reject(
                5,
                "IC0503",
                format!(
                    "Error from Canister {cid}: Canister called `ic0.trap` with message: '{msg}'"
                ),
            )
        };
        let mut st = self.state.lock().unwrap();
        let Some(c) = st.canisters.get_mut(&cid) else {
            return reject(3, "IC0301", format!("Canister {cid} not found"));
        };
        let Some(h) = c.hosted.as_mut() else {
            return reject(
                5,
                "IC0536",
                format!("Canister {cid} has no method '{method}'"),
            );
        };
        if !c.controllers.contains(&sender) {
            return trap(
                "mo-mem: only controllers of this canister may read or take its memory snapshots",
            );
        }
        #[derive(candid::CandidType)]
        struct HostedSnapshot {
            id: candid::Nat,
            taken_at: candid::Int,
            size: u64,
        }
        let info = |(id, at, d): &(u64, u64, Data)| HostedSnapshot {
            id: candid::Nat::from(*id),
            taken_at: candid::Int::from(*at),
            size: d.len(),
        };
        match (method, query) {
            ("mo_mem_info", true) => Outcome::Reply(
                candid::encode_one(h.snapshots.iter().map(info).collect::<Vec<_>>()).unwrap(),
            ),
            ("mo_mem_create" | "mo_mem_update", false) => {
                if method == "mo_mem_create" && h.snapshots.len() >= MAX_SNAPSHOTS {
                    return trap("mo-mem: the canister already holds the maximum number of snapshots (10); use mo_mem_update or mo_mem_delete");
                }
                if method == "mo_mem_update" && h.snapshots.pop().is_none() {
                    return trap("mo-mem: no snapshot to replace; use mo_mem_create");
                }
                let entry = (h.next_id, now_ns(), c.memory.clone());
                h.next_id += 1;
                h.snapshots.push(entry.clone());
                Outcome::Reply(candid::encode_one(info(&entry)).unwrap())
            }
            ("mo_mem_read", true) => {
                let Ok((id, offset, size)) = candid::decode_args::<(candid::Nat, u64, u64)>(arg)
                else {
                    return reject(5, "IC0503", "bad argument");
                };
                let Some((_, _, data)) = h.snapshots.iter().find(|(i, _, _)| id == *i).cloned()
                else {
                    return trap("mo-mem: no such snapshot");
                };
                if size > MAX_SLICE {
                    return trap("mo-mem: requested slice too large (at most 2000000 bytes)");
                }
                if offset > data.len() || size > data.len() - offset {
                    return trap("mo-mem: slice out of bounds");
                }
                drop(st);
                let count = self.stats.slice_reads.load(Ordering::Relaxed) + 1;
                let hook = self.hook.lock().unwrap().clone();
                if let Some(hook) = hook {
                    hook(count, self);
                }
                let mut chunk = data.read(offset, size);
                if self.faults.lock().unwrap().short_slices && !chunk.is_empty() {
                    chunk.pop();
                }
                self.stats.slice_reads.fetch_add(1, Ordering::Relaxed);
                self.stats
                    .bytes_served
                    .fetch_add(chunk.len() as u64, Ordering::Relaxed);
                Outcome::Reply(
                    candid::encode_one(ic_agent::export::serde_bytes::ByteBuf::from(chunk))
                        .unwrap(),
                )
            }
            _ => reject(
                5,
                "IC0536",
                format!(
                    "Canister {cid} has no {} method '{method}'",
                    if query { "query" } else { "update" }
                ),
            ),
        }
    }

    fn handle_read_state(&self, body: &[u8]) -> (u16, Vec<u8>) {
        use ic_transport_types::{Envelope, EnvelopeContent};
        let env: Envelope = match serde_cbor::from_slice(body) {
            Ok(e) => e,
            Err(e) => return (400, format!("bad envelope: {e}").into_bytes()),
        };
        let EnvelopeContent::ReadState { paths, .. } = env.content.into_owned() else {
            return (400, b"not a read_state".to_vec());
        };
        let mut found = None;
        let mut subnet = false;
        for p in &paths {
            if p.len() >= 2 && p[0].as_bytes() == b"request_status" {
                let rid = p[1].as_bytes().to_vec();
                if let Some(o) = self.state.lock().unwrap().completed.get(&rid) {
                    found = Some((rid, o.clone()));
                }
            }
            // `/subnet` or `/subnet/<this subnet>…`: the subnet's keys and ranges (what the
            // agent reads to check query signatures)
            let sid = self.signer.subnet_id();
            if p.first().map(|l| l.as_bytes()) == Some(b"subnet")
                && p.get(1).is_none_or(|l| l.as_bytes() == sid.as_slice())
            {
                subnet = true;
            }
        }
        let extra = if subnet {
            self.signer.subnet_entries()
        } else {
            vec![]
        };
        let request = found.as_ref().map(|(rid, o)| (rid.as_slice(), o));
        let tree = certify::tree(request, extra, self.cert_time());
        let cert = self.signer.certify(tree);
        use serde_cbor::Value;
        let mut m = BTreeMap::new();
        m.insert(Value::Text("certificate".into()), Value::Bytes(cert));
        (200, serde_cbor::to_vec(&Value::Map(m)).unwrap())
    }

    fn management(&self, ecid: &str, sender: Principal, method: &str, arg: &[u8]) -> Outcome {
        macro_rules! decode {
            ($t:ty) => {
                match candid::decode_one::<$t>(arg) {
                    Ok(v) => v,
                    Err(e) => return reject(4, "IC0408", format!("invalid payload: {e}")),
                }
            };
        }
        let ok = |bytes: Result<Vec<u8>, candid::Error>| Outcome::Reply(bytes.unwrap());
        let check_ecid = |cid: &Principal| -> Option<Outcome> {
            (cid.to_text() != ecid).then(|| {
                reject(
                    5,
                    "IC0504",
                    format!("effective canister ID {ecid} does not match {cid}"),
                )
            })
        };
        match method {
            "canister_status" => {
                let a = decode!(CanisterIdRecord);
                if let Some(o) = check_ecid(&a.canister_id) {
                    return o;
                }
                let st = self.state.lock().unwrap();
                let c = match controlled(&st, a.canister_id, sender) {
                    Ok(c) => c,
                    Err(o) => return o,
                };
                #[derive(candid::CandidType)]
                struct StatusReply {
                    status: CanisterStatusType,
                    module_hash: Option<Vec<u8>>,
                    version: u64,
                }
                let module_hash =
                    (c.module.len() > 0).then(|| Sha256::digest(c.module.to_vec()).to_vec());
                ok(candid::encode_one(StatusReply {
                    status: c.status,
                    module_hash,
                    version: c.version,
                }))
            }
            "stop_canister" | "start_canister" => {
                let a = decode!(CanisterIdRecord);
                if let Some(o) = check_ecid(&a.canister_id) {
                    return o;
                }
                let mut st = self.state.lock().unwrap();
                if let Err(o) = controlled(&st, a.canister_id, sender) {
                    return o;
                }
                let c = st.canisters.get_mut(&a.canister_id).unwrap();
                c.status = if method == "stop_canister" {
                    CanisterStatusType::Stopped
                } else {
                    CanisterStatusType::Running
                };
                ok(candid::encode_args(()))
            }
            "take_canister_snapshot" => {
                let a = decode!(TakeCanisterSnapshotArgs);
                if let Some(o) = check_ecid(&a.canister_id) {
                    return o;
                }
                let mut st = self.state.lock().unwrap();
                if let Err(o) = controlled(&st, a.canister_id, sender) {
                    return o;
                }
                match take(&mut st, a.canister_id, a.replace_snapshot) {
                    Ok(s) => ok(candid::encode_one(Snapshot {
                        id: s.id.clone(),
                        taken_at_timestamp: s.taken_at,
                        total_size: s.total_size(),
                    })),
                    Err(o) => o,
                }
            }
            "list_canister_snapshots" => {
                let a = decode!(CanisterIdRecord);
                if let Some(o) = check_ecid(&a.canister_id) {
                    return o;
                }
                let st = self.state.lock().unwrap();
                if let Err(o) = viewer(&st, a.canister_id, sender) {
                    return o;
                }
                let list: Vec<Snapshot> = st
                    .snapshots
                    .get(&a.canister_id)
                    .map(|v| {
                        v.iter()
                            .map(|s| Snapshot {
                                id: s.id.clone(),
                                taken_at_timestamp: s.taken_at,
                                total_size: s.total_size(),
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                ok(candid::encode_one(list))
            }
            "delete_canister_snapshot" => {
                let a = decode!(DeleteCanisterSnapshotArgs);
                let mut st = self.state.lock().unwrap();
                if let Err(o) = controlled(&st, a.canister_id, sender) {
                    return o;
                }
                let v = st.snapshots.entry(a.canister_id).or_default();
                let before = v.len();
                v.retain(|s| s.id != a.snapshot_id);
                if v.len() == before {
                    return not_found(&a.snapshot_id);
                }
                ok(candid::encode_args(()))
            }
            "read_canister_snapshot_metadata" => {
                let a = decode!(ReadCanisterSnapshotMetadataArgs);
                if let Some(o) = check_ecid(&a.canister_id) {
                    return o;
                }
                let st = self.state.lock().unwrap();
                if let Err(o) = viewer(&st, a.canister_id, sender) {
                    return o;
                }
                let Some(s) = find(&st, a.canister_id, &a.snapshot_id) else {
                    return not_found(&a.snapshot_id);
                };
                ok(candid::encode_one(metadata(s)))
            }
            "read_canister_snapshot_data" => {
                let a = decode!(ReadCanisterSnapshotDataArgs);
                if let Some(o) = check_ecid(&a.canister_id) {
                    return o;
                }
                self.read_data(sender, a)
            }
            other => reject(
                3,
                "IC0302",
                format!("management canister has no method {other:?}"),
            ),
        }
    }

    fn read_data(&self, sender: Principal, a: ReadCanisterSnapshotDataArgs) -> Outcome {
        {
            let mut f = self.faults.lock().unwrap();
            if f.transient_rejects > 0 {
                f.transient_rejects -= 1;
                self.stats.faults_injected.fetch_add(1, Ordering::Relaxed);
                return reject(
                    2,
                    "IC0210",
                    "Canister is heap delta rate limited: retry later",
                );
            }
        }
        let count = self.stats.slice_reads.load(Ordering::Relaxed) + 1;
        let hook = self.hook.lock().unwrap().clone();
        if let Some(h) = hook {
            h(count, self);
        }
        let (data, offset, size) = {
            let st = self.state.lock().unwrap();
            if let Err(o) = viewer(&st, a.canister_id, sender) {
                return o;
            }
            let Some(s) = find(&st, a.canister_id, &a.snapshot_id) else {
                return not_found(&a.snapshot_id);
            };
            let (blob, offset, size) = match &a.kind {
                SnapshotDataKind::WasmModule { offset, size } => (&s.state.module, *offset, *size),
                SnapshotDataKind::WasmMemory { offset, size } => (&s.state.memory, *offset, *size),
                SnapshotDataKind::StableMemory { offset, size } => {
                    (&s.state.stable, *offset, *size)
                }
                SnapshotDataKind::WasmChunk { hash } => {
                    let Some(c) = s
                        .state
                        .chunks
                        .iter()
                        .find(|c| Sha256::digest(c)[..] == hash[..])
                    else {
                        return reject(
                            4,
                            "IC0408",
                            "Chunk hash not found in the snapshot's chunk store",
                        );
                    };
                    let c = Data::bytes(c.clone());
                    let len = c.len();
                    return self.serve(c, 0, len);
                }
            };
            self.stats
                .max_slice_requested
                .fetch_max(size, Ordering::Relaxed);
            if size > MAX_SLICE {
                return reject(
                    4,
                    "IC0408",
                    format!("Requested slice too large: {size} > {MAX_SLICE}"),
                );
            }
            if offset.checked_add(size).is_none_or(|end| end > blob.len()) {
                return reject(
                    4,
                    "IC0408",
                    format!("Invalid subslice into snapshot data: offset {offset} size {size} exceeds {}", blob.len()),
                );
            }
            (blob.clone(), offset, size)
        };
        self.serve(data, offset, size)
    }

    fn serve(&self, data: Data, offset: u64, size: u64) -> Outcome {
        let mut chunk = data.read(offset, size);
        if self.faults.lock().unwrap().short_slices && !chunk.is_empty() {
            chunk.pop();
        }
        self.stats.slice_reads.fetch_add(1, Ordering::Relaxed);
        self.stats
            .bytes_served
            .fetch_add(chunk.len() as u64, Ordering::Relaxed);
        Outcome::Reply(candid::encode_one(ReadCanisterSnapshotDataResult { chunk }).unwrap())
    }
}

fn not_found(id: &[u8]) -> Outcome {
    reject(
        3,
        "IC0305",
        format!(
            "Could not find the snapshot ID {} for canister",
            hex::encode(id)
        ),
    )
}

fn find<'a>(st: &'a State, cid: Principal, id: &[u8]) -> Option<&'a StoredSnapshot> {
    st.snapshots.get(&cid)?.iter().find(|s| s.id == id)
}

fn controlled(st: &State, cid: Principal, sender: Principal) -> Result<&Canister, Outcome> {
    let c = st
        .canisters
        .get(&cid)
        .ok_or_else(|| reject(3, "IC0301", format!("Canister {cid} not found")))?;
    if c.controllers.contains(&sender) {
        Ok(c)
    } else {
        Err(reject(
            5,
            "IC0512",
            format!("Only the controllers of the canister {cid} can control it.\nCanister's controllers: {}\nSender's ID: {sender}", c.controllers.iter().map(|p| p.to_text()).collect::<Vec<_>>().join(" ")),
        ))
    }
}

fn viewer(st: &State, cid: Principal, sender: Principal) -> Result<&Canister, Outcome> {
    let c = st
        .canisters
        .get(&cid)
        .ok_or_else(|| reject(3, "IC0301", format!("Canister {cid} not found")))?;
    if c.public_snapshots || c.controllers.contains(&sender) {
        Ok(c)
    } else {
        controlled(st, cid, sender)
    }
}

fn take(
    st: &mut State,
    cid: Principal,
    replace: Option<Vec<u8>>,
) -> Result<StoredSnapshot, Outcome> {
    let mut c = st
        .canisters
        .get(&cid)
        .cloned()
        .ok_or_else(|| reject(3, "IC0301", format!("Canister {cid} not found")))?;
    c.sync_from_live();
    c.live = None;
    if c.module.len() == 0 {
        return Err(reject(
            5,
            "IC0514",
            "Failed to create snapshot for empty canister",
        ));
    }
    let list = st.snapshots.entry(cid).or_default();
    match &replace {
        Some(old) if !list.iter().any(|s| &s.id == old) => return Err(not_found(old)),
        Some(_) => {}
        None if list.len() >= MAX_SNAPSHOTS => {
            return Err(reject(
                4,
                "IC0406",
                format!("Canister {cid} has reached the maximum number of snapshots allowed: {MAX_SNAPSHOTS}."),
            ))
        }
        None => {}
    }
    let counter = st.counters.entry(cid).or_insert(0);
    let mut id = counter.to_be_bytes().to_vec();
    *counter += 1;
    id.extend_from_slice(cid.as_slice());
    let snap = StoredSnapshot {
        id,
        taken_at: now_ns(),
        state: c,
    };
    let list = st.snapshots.entry(cid).or_default();
    if let Some(old) = replace {
        list.retain(|s| s.id != old);
    }
    list.push(snap.clone());
    Ok(snap)
}

fn metadata(s: &StoredSnapshot) -> ReadCanisterSnapshotMetadataResult {
    ReadCanisterSnapshotMetadataResult {
        source: Some(SnapshotSource::TakenFromCanister(candid::Reserved)),
        taken_at_timestamp: s.taken_at,
        wasm_module_size: s.state.module.len(),
        globals: s.state.globals.clone(),
        wasm_memory_size: s.state.memory.len(),
        stable_memory_size: s.state.stable.len(),
        wasm_chunk_store: s
            .state
            .chunks
            .iter()
            .map(|c| ChunkHash {
                hash: Sha256::digest(c).to_vec(),
            })
            .collect(),
        canister_version: s.state.version,
        certified_data: vec![],
        global_timer: None,
        on_low_wasm_memory_hook_status: None,
    }
}
