//! One script session set up for a front-end: its limits and name, and the host values of
//! what it reads (`image`, `heap`, `vars` over a snapshot; `canister`; the sibling
//! `snapshots`). Every front-end starts its sessions here: `mo-mem eval` and the MCP
//! server's `eval` tool (through `serve::script_run`), `mo-mem repl`, and the mount's `eval`
//! files ([`super::workers`]).

use super::host_canister::{install_canister, CanisterCalls};
use super::host_snapshot::{install, SnapshotContext};
use super::host_snapshots::{install_siblings, SiblingOpener};
use super::limits::Limits;
use super::session::Session;
use std::sync::Arc;

/// What a new session is bound to.
pub struct SessionSetup {
    /// Its budgets.
    pub limits: Limits,
    /// The script's name in messages (a file name, `script`, `input`, `eval`).
    pub source_name: String,
    /// The snapshot its `image`, `heap` and `vars` read, if any.
    pub snapshot: Option<Arc<SnapshotContext>>,
    /// The snapshot's canister (`canister.METHOD`), bound only with a snapshot.
    pub canister: Option<Arc<dyn CanisterCalls>>,
    /// The sibling snapshots' names and their opener (`snapshots`), bound only with a
    /// snapshot.
    pub siblings: Option<(Vec<String>, SiblingOpener)>,
    /// With a snapshot: JSON shows the canister's collections as their structure, not their
    /// natural views.
    pub raw_json: bool,
}

impl SessionSetup {
    /// A session named `source_name` under `limits`, bound to nothing yet.
    pub fn new(limits: Limits, source_name: &str) -> SessionSetup {
        SessionSetup {
            limits,
            source_name: source_name.to_string(),
            snapshot: None,
            canister: None,
            siblings: None,
            raw_json: false,
        }
    }

    /// Starts the session with its host values bound.
    pub fn start(self) -> Session {
        let mut session = Session::new(self.limits);
        session.set_source_name(&self.source_name);
        let Some(snapshot) = self.snapshot else {
            return session;
        };
        install(&mut session, snapshot);
        if let Some(canister) = self.canister {
            install_canister(&mut session, canister);
        }
        if self.raw_json {
            session.set_json(None);
        }
        if let Some((names, open)) = self.siblings {
            install_siblings(&mut session, names, open);
        }
        session
    }
}
