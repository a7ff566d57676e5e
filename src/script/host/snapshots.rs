//! The host value `snapshots`: the other snapshots of the session's canister, so a script
//! over the newest can read an older one beside it and compare values.
//!
//! `snapshots.names` lists them (`[Text]`); `snapshots.open("0a01")` gives one as an
//! object with its own `vars`, `heap` and `image` (the same host values as the session's).
//! The embedder decides which names exist and opens them (checking their trust): scripts
//! never name a path.

use super::args::{arg_text, check_arity};
use super::context::SnapshotContext;
use super::heap::HeapHost;
use super::image::ImageHost;
use super::lazy::EAGER_NODES;
use super::vars::VarsHost;
use super::{HostError, HostObject};
use crate::script::value::Value;
use std::rc::Rc;
use std::sync::Arc;

/// Why a sibling snapshot does not open: the embedder's error, kept whole (not trusted,
/// corrupt, unreadable); a script sees its message as a trap.
pub type SiblingError = Arc<dyn std::error::Error + Send + Sync>;

/// Opens a sibling snapshot by name, or says why not.
pub type SiblingOpener =
    Arc<dyn Fn(&str) -> Result<Arc<SnapshotContext>, SiblingError> + Send + Sync>;

/// `snapshots`: the sibling snapshots' names and an opener.
pub struct SnapshotsHost {
    names: Vec<String>,
    open: SiblingOpener,
}

impl SnapshotsHost {
    /// The siblings `names`, opened by `open`.
    pub fn new(names: Vec<String>, open: SiblingOpener) -> SnapshotsHost {
        SnapshotsHost { names, open }
    }
}

/// One opened sibling: its `vars`, `heap` and `image`.
struct SiblingHost {
    name: String,
    vars: Rc<VarsHost>,
    heap: Rc<HeapHost>,
    image: Rc<ImageHost>,
}

impl HostObject for SiblingHost {
    fn describe(&self) -> String {
        format!("snapshot {}", self.name)
    }

    fn field(&self, name: &str) -> Result<Option<Value>, HostError> {
        Ok(match name {
            "vars" => Some(Value::Host(self.vars.clone())),
            "heap" => Some(Value::Host(self.heap.clone())),
            "image" => Some(Value::Host(self.image.clone())),
            "name" => Some(Value::text(&self.name)),
            _ => None,
        })
    }

    fn field_names(&self) -> Vec<String> {
        ["heap", "image", "name", "vars"].map(String::from).to_vec()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

impl HostObject for SnapshotsHost {
    fn describe(&self) -> String {
        format!("snapshots ({} of this canister)", self.names.len())
    }

    fn field(&self, name: &str) -> Result<Option<Value>, HostError> {
        Ok(match name {
            "names" => Some(Value::Array(
                self.names.iter().map(|n| Value::text(n)).collect(),
            )),
            _ => None,
        })
    }

    fn call(&self, name: &str, args: &[Value]) -> Result<Option<Value>, HostError> {
        if name != "open" {
            return Ok(None);
        }
        check_arity("snapshots.open", args, 1)?;
        let which = arg_text("snapshots.open", args, 0)?;
        if !self.names.iter().any(|n| n == which) {
            return Err(HostError::Misuse(format!(
                "snapshots.open: no snapshot {which:?} (snapshots.names lists them)"
            )));
        }
        let ctx = (self.open)(which)
            .map_err(|e| HostError::Misuse(format!("snapshots.open({which:?}): {e}")))?;
        let vars = Rc::new(VarsHost::with_eager_nodes(ctx.clone(), EAGER_NODES));
        let sibling = SiblingHost {
            name: which.to_string(),
            heap: Rc::new(HeapHost::new(ctx.clone(), vars.clone())),
            image: Rc::new(ImageHost::new(ctx)),
            vars,
        };
        Ok(Some(Value::Host(Rc::new(sibling))))
    }

    fn field_names(&self) -> Vec<String> {
        vec!["names".into()]
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
