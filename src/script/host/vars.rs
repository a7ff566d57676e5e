//! The host value `vars`: the actor's stable variables as ordinary script values.
//!
//! `vars.x` decodes variable `x` (and nothing else) on first touch and keeps it for the
//! session: completely if it is small, else one level at a time ([`super::lazy`]);
//! `debug_show vars.x` prints exactly what `mo-mem vars SNAPSHOT x` prints.

use super::context::{signature, SnapshotContext};
use super::convert::AddressBook;
use super::direct::Plans;
use super::lazy::{LazyReader, EAGER_NODES};
use super::{HostError, HostObject};
use crate::heap::value::{stable_variables, NamedVar};
use crate::script::value::Value;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

/// The `vars` host object of one session.
pub struct VarsHost {
    ctx: Arc<SnapshotContext>,
    list: RefCell<Option<Result<Vec<NamedVar>, HostError>>>,
    cache: RefCell<HashMap<String, Value>>,
    /// Heap addresses of the compounds handed to the script (for `heap.objectOf`).
    pub book: Rc<AddressBook>,
    eager_nodes: u64,
    /// Bytes decoded and not yet charged to the evaluation ([`HostObject::take_bytes`]).
    bytes: Rc<Cell<u64>>,
    /// How plain parts of huge values are read (made once per type).
    plans: Rc<Plans>,
}

impl VarsHost {
    /// `vars` over `ctx`.
    pub fn new(ctx: Arc<SnapshotContext>) -> VarsHost {
        VarsHost::with_eager_nodes(ctx, EAGER_NODES)
    }

    /// `vars` over `ctx` decoding values of up to `eager_nodes` nodes completely.
    pub fn with_eager_nodes(ctx: Arc<SnapshotContext>, eager_nodes: u64) -> VarsHost {
        VarsHost {
            ctx,
            list: RefCell::new(None),
            cache: RefCell::new(HashMap::new()),
            book: Rc::new(AddressBook::default()),
            eager_nodes,
            bytes: Rc::new(Cell::new(0)),
            plans: Rc::new(Plans::default()),
        }
    }

    /// The stable variables (names, types, undecoded values), sorted by name.
    pub fn variables(&self) -> Result<Vec<NamedVar>, HostError> {
        let mut list = self.list.borrow_mut();
        if list.is_none() {
            let r = signature(&self.ctx).and_then(|sig| {
                stable_variables(self.ctx.heap(), sig)
                    .map_err(|e| HostError::data("cannot read the stable variables: ", e))
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

    fn end_request(&self) {
        // the next request reads the variables afresh (their top levels decoded: an array's
        // every element, 35 MB for 500 000 records); values a definition holds stay, with
        // their addresses
        self.cache.borrow_mut().clear();
        self.list.borrow_mut().take();
        self.book.sweep();
    }

    fn field(&self, name: &str) -> Result<Option<Value>, HostError> {
        if let Some(v) = self.cache.borrow().get(name) {
            return Ok(Some(v.clone()));
        }
        let vars = self.variables()?;
        let Some(var) = vars.iter().find(|v| *v.name == *name) else {
            return Ok(None);
        };
        let reader = LazyReader {
            ctx: self.ctx.clone(),
            book: self.book.clone(),
            eager_nodes: self.eager_nodes,
            bytes: self.bytes.clone(),
            plans: self.plans.clone(),
        };
        let value = reader
            .materialize(&var.value)
            .map_err(|e| e.within(&format!("stable variable `{name}`: ")))?;
        self.cache
            .borrow_mut()
            .insert(name.to_string(), value.clone());
        Ok(Some(value))
    }

    /// `vars.get(name)`: the variable `name` as `?value` (`null` if there is none), for names
    /// that cannot be written as `vars.NAME` (Motoko keywords such as `actor`).
    fn call(&self, name: &str, args: &[Value]) -> Result<Option<Value>, HostError> {
        if name != "get" {
            return Ok(None);
        }
        let [Value::Text(var)] = args else {
            return Err(HostError::Misuse(
                "vars.get expects one argument, the variable's name as Text".into(),
            ));
        };
        Ok(Some(match self.field(var)? {
            Some(v) => Value::some(v),
            None => Value::Null,
        }))
    }

    fn field_names(&self) -> Vec<String> {
        self.names().unwrap_or_default()
    }

    fn take_bytes(&self) -> u64 {
        self.bytes.replace(0)
    }

    fn null_field_json(&self, name: &str) -> Option<String> {
        let vars = self.variables().ok()?;
        let var = vars.iter().find(|v| *v.name == *name)?;
        let mut d = self.ctx.decoder().ok()?;
        d.collection_kind(&var.value)?;
        if !self.ctx.heap().is_null(var.value.word).ok()? {
            return None;
        }
        d.set_natural(true);
        let v = d.deep(&var.value).ok()?;
        Some(crate::heap::render::to_json(&v))
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
