//! Host values: objects the embedder injects (`image`, `heap`, `vars`), read lazily.

use super::value::Value;

/// The approximate memory of a script value handed over by a host object, in bytes (its
/// rendered length: at least one byte per node, the bytes of its texts and blobs).
pub fn value_bytes(v: &Value) -> u64 {
    super::value::show::show_size_within(v, u64::MAX).unwrap_or(u64::MAX)
}

/// An error raised by a host object; it stops the script like a trap.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct HostError(pub String);

/// An object provided by the embedder, with named fields and methods returning script values.
///
/// Fields and methods are looked up by name when the script touches them, so a host
/// object can decode lazily (touching one field of a huge structure stays cheap).
/// Host objects must not give scripts access to files or the network.
pub trait HostObject {
    /// A short description used by `debug_show` and in error messages.
    fn describe(&self) -> String;

    /// The value of field `name`, or `Ok(None)` when there is no such field.
    fn field(&self, name: &str) -> Result<Option<Value>, HostError>;

    /// Calls method `name` with `args`; `Ok(None)` when there is no such method.
    fn call(&self, name: &str, args: &[Value]) -> Result<Option<Value>, HostError> {
        let _ = (name, args);
        Ok(None)
    }

    /// The names of the fields, for listings and completion.
    fn field_names(&self) -> Vec<String> {
        Vec::new()
    }

    /// The work (in steps) done by calls since the last time this was asked; the
    /// interpreter charges it against the step budget (and checks the deadline) after each
    /// method call, so host calls that walk the heap count like script loops.
    fn take_work(&self) -> u64 {
        0
    }

    /// The bytes of script values this object created (decoded from the snapshot) since the
    /// last time this was asked; the interpreter charges them against the memory budget
    /// after each field read and method call, like the values a script creates itself.
    fn take_bytes(&self) -> u64 {
        0
    }

    /// The decoded heap value this object stands for, if any: `debug_show` and JSON render
    /// it exactly as `mo-mem vars` does; other objects render as [`HostObject::describe`].
    fn heap_value(&self) -> Option<std::borrow::Cow<'_, crate::heap::value::Value>> {
        None
    }

    /// Lets built-in library code downcast to its own host types.
    fn as_any(&self) -> &dyn std::any::Any;
}
