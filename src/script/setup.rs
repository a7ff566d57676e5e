//! One script session set up for a front-end: its limits and name, and the host values of
//! what it reads (`image`, `heap`, `vars` over a snapshot; `canister`; the sibling
//! `snapshots`). Every front-end starts its sessions here: `mo-mem eval` and the MCP
//! server's `eval` tool (through `serve::script_run`), `mo-mem repl`, and the mount's `eval`
//! files ([`super::workers`]).

use super::host::canister::{CanisterCalls, CanisterHost};
use super::host::context::SnapshotContext;
use super::host::heap::HeapHost;
use super::host::image::ImageHost;
use super::host::lazy::EAGER_NODES;
use super::host::snapshots::{SiblingOpener, SnapshotsHost};
use super::host::vars::VarsHost;
use super::json::to_natural_json;
use super::limits::Limits;
use super::session::Session;
use super::value::Value;
use std::rc::Rc;
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
    /// JSON shows collections (the canister's, with a snapshot, and those the script builds)
    /// as their structure, not their natural views.
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
        session.set_raw_collections(self.raw_json);
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

/// Binds `image`, `heap` and `vars` over `ctx` in `session`, makes its `debug_show` print
/// `Float`s like a compiled canister ([`super::show::canister_show`]) and its JSON show
/// collections as their natural views ([`super::json::to_natural_json`]).
pub fn install(session: &mut Session, ctx: Arc<SnapshotContext>) {
    install_with(session, ctx, EAGER_NODES);
}

/// [`install`], reading values of more than `eager_nodes` nodes lazily.
pub fn install_with(session: &mut Session, ctx: Arc<SnapshotContext>, eager_nodes: u64) {
    let floats = ctx.heap().float_style();
    let vars = Rc::new(VarsHost::with_eager_nodes(ctx.clone(), eager_nodes));
    let (book, json_ctx) = (vars.book.clone(), ctx.clone());
    session.set_json(Some(Rc::new(move |v: &Value| {
        to_natural_json(v, &book, &json_ctx)
    })));
    session.define_host("image", Rc::new(ImageHost::new(ctx.clone())));
    session.define_host("heap", Rc::new(HeapHost::new(ctx, vars.clone())));
    session.define_host("vars", vars);
    session.set_floats(floats);
}

/// Binds `canister` over `calls` in `session`.
pub fn install_canister(session: &mut Session, calls: Arc<dyn CanisterCalls>) {
    session.define_host("canister", Rc::new(CanisterHost::new(calls)));
}

/// Binds `snapshots` in `session`: the siblings `names`, opened by `open`.
pub fn install_siblings(session: &mut Session, names: Vec<String>, open: SiblingOpener) {
    session.define_host("snapshots", Rc::new(SnapshotsHost::new(names, open)));
}
