//! Host values: objects the embedder injects (`image`, `heap`, `vars`), read lazily.

pub mod args;
pub mod canister;
pub mod context;
pub mod convert;
pub mod direct;
pub mod heap;
pub mod image;
pub mod lazy;
pub mod lazy_node;
pub mod snapshots;
pub mod vars;
pub mod view;

use crate::heap::value::DecodeError;
use crate::script::value::Value;

/// The approximate memory of a script value handed over by a host object, in bytes (its
/// rendered length: at least one byte per node, the bytes of its texts and blobs).
pub fn value_bytes(v: &Value) -> u64 {
    crate::script::value::show::show_size_within(v, u64::MAX).unwrap_or(u64::MAX)
}

/// What kind of failure stopped a host value, so that a front-end can answer each
/// deliberately (the mount's `eval` file picks its errno from it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HostErrorKind {
    /// The script used a host value wrongly: wrong arguments, an index out of bounds, an
    /// address that holds no object, a variable that does not exist.
    Misuse,
    /// A limit was reached (a reader limit, or a host value's own cap): the snapshot may be
    /// fine, the value is larger than the limits allow.
    Limit,
    /// The snapshot's data is corrupt or unsupported where the value comes from.
    Corrupt,
    /// The module has no stable signature, so the stable variables cannot be named.
    NoSignature,
}

/// An error raised by a host object; it stops the script like a trap. The message is what
/// the script's trap says; [`HostError::kind`] tells a limit from corruption from misuse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HostError {
    /// The script used a host value wrongly ([`HostErrorKind::Misuse`]).
    #[error("{0}")]
    Misuse(String),
    /// A host value's own cap was reached (a blob length, a count of reachable objects).
    #[error("{0}")]
    Limit(String),
    /// The snapshot's data could not be decoded: corrupt, over a reader limit, or without a
    /// signature (the source says which).
    #[error("{context}{source}")]
    Data {
        /// What was being read, ending in `": "` (empty when the source says it all).
        context: String,
        /// The decoder's error, with the address or offset.
        source: DecodeError,
    },
}

impl HostError {
    /// A failure to decode the snapshot's data while reading `context` (which ends in `": "`).
    pub fn data(context: impl Into<String>, source: impl Into<DecodeError>) -> HostError {
        HostError::Data {
            context: context.into(),
            source: source.into(),
        }
    }

    /// The kind of failure.
    pub fn kind(&self) -> HostErrorKind {
        match self {
            HostError::Misuse(_) => HostErrorKind::Misuse,
            HostError::Limit(_) => HostErrorKind::Limit,
            HostError::Data { source, .. } if source.limit().is_some() => HostErrorKind::Limit,
            HostError::Data {
                source: DecodeError::NoSignature,
                ..
            } => HostErrorKind::NoSignature,
            HostError::Data { .. } => HostErrorKind::Corrupt,
        }
    }

    /// The same error, its message starting with `prefix` (what was being read).
    pub fn within(self, prefix: &str) -> HostError {
        match self {
            HostError::Misuse(m) => HostError::Misuse(format!("{prefix}{m}")),
            HostError::Limit(m) => HostError::Limit(format!("{prefix}{m}")),
            HostError::Data { context, source } => HostError::Data {
                context: format!("{prefix}{context}"),
                source,
            },
        }
    }
}

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

    /// A request of a session that outlives it (the mount's `eval` file) has ended: let go
    /// of what was kept only to answer it faster (decoded values no script binding holds),
    /// so an idle session holds its own definitions and little else.
    fn end_request(&self) {}

    /// The decoded heap value this object stands for, if any: `debug_show` and JSON render
    /// it exactly as `mo-mem vars` does; other objects render as [`HostObject::describe`].
    fn heap_value(&self) -> Option<std::borrow::Cow<'_, crate::heap::value::Value>> {
        None
    }

    /// For a canister-held ordered map (a `mo:core` Map, `pure/Map`, `mo:base` RBTree tree):
    /// the value under `key` by the key type's own `compare` (`Some(None)`: no such entry),
    /// read by descending one path of the structure. `Ok(None)` when this object is no such
    /// map or `key` has no such order: the caller then runs the script's `compare`.
    fn ordered_get(&self, key: &Value) -> Result<Option<Option<Value>>, HostError> {
        let _ = key;
        Ok(None)
    }

    /// The JSON of field `name` where its script value is `null` but the heap value is a
    /// collection, which JSON shows as its natural view (an empty `pure/List` is `null` to
    /// scripts and `[]` in JSON); `None` for any other field.
    fn null_field_json(&self, name: &str) -> Option<String> {
        let _ = name;
        None
    }

    /// The value one level deep as a script value (an array, tuple, record, variant or
    /// option whose parts are script values, each read as this object reads its parts), for
    /// the operations that take a value apart whole (`==`); `Ok(None)` for an object that is
    /// no such value.
    fn unfold(&self) -> Result<Option<Value>, HostError> {
        Ok(None)
    }

    /// Lets built-in library code downcast to its own host types.
    fn as_any(&self) -> &dyn std::any::Any;
}
