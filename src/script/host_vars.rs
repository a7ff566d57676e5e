//! The host value `vars`: the actor's stable variables as ordinary script values.
//!
//! `vars.x` decodes variable `x` (and nothing else) on first touch and keeps it for the
//! session; `debug_show vars.x` prints exactly what `mo-mem vars SNAPSHOT x` prints.

use super::host::{HostError, HostObject};
use super::host_convert::{to_script, AddressBook};
use super::host_snapshot::SnapshotContext;
use super::value::Value;
use crate::heap::value::{signature_decoder, stable_variables, NamedVar};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

/// The `vars` host object of one session.
pub struct VarsHost {
    ctx: Arc<SnapshotContext>,
    list: RefCell<Option<Result<Vec<NamedVar>, HostError>>>,
    cache: RefCell<HashMap<String, Value>>,
    /// Heap addresses of the compounds handed to the script (for `heap.objectOf`).
    pub book: AddressBook,
}

impl VarsHost {
    /// `vars` over `ctx`.
    pub fn new(ctx: Arc<SnapshotContext>) -> VarsHost {
        VarsHost {
            ctx,
            list: RefCell::new(None),
            cache: RefCell::new(HashMap::new()),
            book: AddressBook::default(),
        }
    }

    /// The stable variables (names, types, undecoded values), sorted by name.
    pub fn variables(&self) -> Result<Vec<NamedVar>, HostError> {
        let mut list = self.list.borrow_mut();
        if list.is_none() {
            let r = self.ctx.signature().and_then(|sig| {
                stable_variables(&self.ctx.heap, sig)
                    .map_err(|e| HostError(format!("cannot read the stable variables: {e}")))
            });
            *list = Some(r);
        }
        list.clone().unwrap_or_else(|| Ok(Vec::new()))
    }

    /// The names of the stable variables, sorted.
    pub fn names(&self) -> Result<Vec<String>, HostError> {
        Ok(self
            .variables()?
            .iter()
            .map(|v| v.name.to_string())
            .collect())
    }

    /// The heap word holding variable `name`'s value, if there is such a variable.
    pub fn word(&self, name: &str) -> Result<Option<u64>, HostError> {
        Ok(self
            .variables()?
            .iter()
            .find(|v| *v.name == *name)
            .map(|v| v.value.word))
    }
}

impl HostObject for VarsHost {
    fn describe(&self) -> String {
        "vars".into()
    }

    fn field(&self, name: &str) -> Result<Option<Value>, HostError> {
        if let Some(v) = self.cache.borrow().get(name) {
            return Ok(Some(v.clone()));
        }
        let vars = self.variables()?;
        let Some(var) = vars.iter().find(|v| *v.name == *name) else {
            return Ok(None);
        };
        let sig = self.ctx.signature()?;
        let mut decoder = signature_decoder(&self.ctx.heap, sig);
        let decoded = decoder
            .deep(&var.value)
            .map_err(|e| HostError(format!("stable variable `{name}`: {e}")))?;
        let value = to_script(&decoded, &self.book);
        self.cache
            .borrow_mut()
            .insert(name.to_string(), value.clone());
        Ok(Some(value))
    }

    fn field_names(&self) -> Vec<String> {
        self.names().unwrap_or_default()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
