//! A snapshot's `methods/` directory: the canister's own queries, run offline on the
//! snapshot. A query without arguments is a file whose content is its reply as Candid text
//! (`cat methods/stats`); a query with arguments is a control file like `eval`: write the
//! Candid arguments, read the reply (per terminal session). The runner behind it is the
//! composition layer's ([`CanisterMethods`]).

use super::control::{ControlFile, ControlLimits, ControlNode, EvalSlots, SessionId};
use super::entry::{DirSource, Entry, FnFile, StaticFile};
use super::error::{RequestError, VfsError};
use super::names::UniqueNames;
use std::path::Path;
use std::sync::Arc;

/// One query of a canister's service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryMethod {
    /// The method's name (its file's name, made a valid unique file name).
    pub name: String,
    /// Its Candid type, as the service writes it (`(nat) -> (text) query`).
    pub signature: String,
    /// Whether it takes arguments (then it is a control file).
    pub takes_args: bool,
}

/// A snapshot canister's queries, answered offline.
pub trait CanisterMethods: Send + Sync {
    /// The queries, in the service's order; `Err` when the canister cannot be asked (no
    /// module, no service): the directory then holds a README saying why.
    fn queries(&self) -> Result<Vec<QueryMethod>, VfsError>;
    /// Checks that `args` (Candid text) fit `method`'s argument types; its text is shown.
    fn check(&self, method: &str, args: &[u8]) -> Result<(), RequestError>;
    /// Calls `method` with `args` (Candid text; empty: none) and returns the reply as
    /// Candid text with a newline; a trap, a reject or a limit is the error.
    fn call(&self, method: &str, args: &[u8]) -> Result<Vec<u8>, RequestError>;
}

/// Gives each snapshot directory its canister's methods.
pub trait MethodsProvider: Send + Sync {
    /// The methods of the snapshot in `dir` (`None`: no `methods/` directory).
    fn for_snapshot(&self, dir: &Path) -> Option<Arc<dyn CanisterMethods>>;
}

/// Wraps each method's control file (the snapshot directory's guard: no call once the
/// snapshot is refused or changed).
pub type ControlWrapper = Arc<dyn Fn(Arc<dyn ControlFile>) -> Arc<dyn ControlFile> + Send + Sync>;

/// The `methods/` directory of one snapshot.
pub struct MethodsDir {
    methods: Arc<dyn CanisterMethods>,
    wrap: ControlWrapper,
    limits: ControlLimits,
    slots: Arc<EvalSlots>,
}

impl MethodsDir {
    /// The directory over `methods`; control files run under `limits` and share `slots`
    /// with the tree's `eval` files.
    pub fn new(
        methods: Arc<dyn CanisterMethods>,
        wrap: ControlWrapper,
        limits: ControlLimits,
        slots: Arc<EvalSlots>,
    ) -> MethodsDir {
        MethodsDir {
            methods,
            wrap,
            limits,
            slots,
        }
    }
}

impl DirSource for MethodsDir {
    fn list(&self) -> Result<Vec<(String, Entry)>, VfsError> {
        let queries = match self.methods.queries() {
            Ok(queries) => queries,
            Err(why) => {
                let text = format!("This snapshot's canister cannot be asked: {why}\n");
                return Ok(vec![(
                    "README".into(),
                    Entry::File(Arc::new(StaticFile(text.into_bytes()))),
                )]);
            }
        };
        let mut entries = Vec::new();
        let mut names = UniqueNames::default();
        for q in queries {
            let methods = self.methods.clone();
            let name = q.name.clone();
            let file_name = names.claim(&q.name);
            let entry = if q.takes_args {
                let file = MethodControl { methods, method: q };
                let engine = (self.wrap)(Arc::new(file));
                let node = ControlNode::with_slots(engine, self.limits, self.slots.clone());
                Entry::Control(Arc::new(node))
            } else {
                let reply = move || methods.call(&name, b"").map_err(VfsError::from);
                Entry::File(Arc::new(FnFile(reply)))
            };
            entries.push((file_name, entry));
        }
        Ok(entries)
    }
}

/// The control file of a query with arguments.
struct MethodControl {
    methods: Arc<dyn CanisterMethods>,
    method: QueryMethod,
}

impl ControlFile for MethodControl {
    fn check(&self, request: &[u8]) -> Result<(), RequestError> {
        self.methods.check(&self.method.name, request)
    }

    fn run(&self, _session: SessionId, request: &[u8]) -> Result<Vec<u8>, RequestError> {
        self.methods.call(&self.method.name, request)
    }

    fn usage(&self) -> Vec<u8> {
        format!(
            "{}: {}\nWrite its Candid arguments into this file, then read the reply:\n  \
             echo '(…)' > {}; cat {}\n",
            self.method.name, self.method.signature, self.method.name, self.method.name
        )
        .into_bytes()
    }
}
