//! What only the tests use of the emulator (the `ic_pull` benchmark includes `emulator/`
//! without this file): the in-process transport, the inspection and set-up methods, and
//! the CLI driver ([`cli`]).

#[path = "cli.rs"]
pub mod cli;

use crate::emulator::{Canister, Emulator, SliceHook, StoredSnapshot};
use bytes::Bytes;
use candid::Principal;
use ic_agent::AgentError;
use std::sync::Arc;

/// The agent-facing in-process transport.
#[derive(Debug)]
pub struct InProcess(pub Emulator);

#[async_trait::async_trait]
impl ic_agent::agent::HttpService for InProcess {
    async fn call<'a>(
        &'a self,
        req: &'a (dyn Fn() -> Result<http::Request<Bytes>, AgentError> + Send + Sync),
        _max_retries: usize,
        _size_limit: Option<usize>,
    ) -> Result<http::Response<Bytes>, AgentError> {
        let req = req()?;
        let (status, body) = self
            .0
            .handle(req.method().as_str(), req.uri().path(), req.body());
        let resp = http::Response::builder()
            .status(status)
            .header("content-type", "application/cbor")
            .body(Bytes::from(body))
            .map_err(|e| AgentError::InvalidHttpResponse(e.to_string()))?;
        Ok(resp)
    }
}

impl Emulator {
    /// Changes a canister in place (simulating its execution, stop/start, settings).
    pub fn with_canister<R>(&self, id: Principal, f: impl FnOnce(&mut Canister) -> R) -> R {
        let mut st = self.state.lock().unwrap();
        f(st.canisters.get_mut(&id).expect("no such canister"))
    }

    /// The snapshots of a canister, oldest first.
    pub fn snapshots(&self, id: Principal) -> Vec<StoredSnapshot> {
        self.state
            .lock()
            .unwrap()
            .snapshots
            .get(&id)
            .cloned()
            .unwrap_or_default()
    }

    /// Changes a stored snapshot in place (an uploaded snapshot whose data or metadata changes).
    pub fn with_snapshot<R>(
        &self,
        cid: Principal,
        id: &[u8],
        f: impl FnOnce(&mut StoredSnapshot) -> R,
    ) -> R {
        let mut st = self.state.lock().unwrap();
        let s = st
            .snapshots
            .get_mut(&cid)
            .and_then(|v| v.iter_mut().find(|s| s.id == id))
            .expect("no such snapshot");
        f(s)
    }

    /// Sets the hook run on every slice read.
    pub fn set_slice_hook(&self, hook: Option<SliceHook>) {
        *self.hook.lock().unwrap() = hook;
    }

    /// An HTTP transport for `AgentBuilder::with_arc_http_middleware`.
    pub fn transport(&self) -> Arc<dyn ic_agent::agent::HttpService> {
        Arc::new(InProcess(self.clone()))
    }
}
