//! The entries of a collection held by a variable, in order, read lazily from the heap:
//! a `mo:core` `Map` (a B-tree of `?(K, V)` slots) or `Set` (`?T` slots), and arrays
//! (indexes as keys). [`entries`] is the one place that recognises collections: when the
//! heap layer gains collection iterators (`heap::collections`), only it changes.
//!
//! The B-tree layout (mo:core's `Map` is `{var root : Node; var size : Nat}`, a node is
//! `#leaf {data}` or `#internal {data; children : [var ?Node]}`, `data` is
//! `{kvs : [var ?(K, V)]; var count : Nat}`, `elements` for a `Set`) is read as
//! `src/script/lib/btree.rs` reads it; the in-order walk keeps an explicit stack of at most
//! [`MAX_LEVELS`] nodes.

use crate::heap::types::Type;
use crate::heap::value::{DecodeError, Decoder, LazyValue, Value};

/// The most levels a B-tree is read to (mo:core's order is 32: 2^64 entries need 13).
pub const MAX_LEVELS: usize = 64;

/// Which kind of collection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// `mo:core/Map`.
    Map,
    /// `mo:core/Set`.
    Set,
    /// `[T]` or `[var T]` (keys are the indexes).
    Array,
}

/// One entry's key.
#[derive(Debug, Clone, PartialEq)]
pub enum Key {
    /// An array index.
    Index(u64),
    /// A map key or set element.
    Value(LazyValue),
}

/// One entry: its key and, for a map or an array, its value.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The key (index, map key, set element).
    pub key: Key,
    /// The value (`None` for a set).
    pub value: Option<LazyValue>,
}

struct Node {
    slots: Vec<LazyValue>,
    children: Vec<LazyValue>,
    next_slot: usize,
    next_child: usize,
}

enum Source {
    Array {
        array: LazyValue,
        len: u64,
        next: u64,
    },
    Tree {
        slots: &'static str,
        stack: Vec<Node>,
    },
}

/// The entries of one collection in order (a map's and a set's by key, an array's by index).
pub struct Entries<'d, 'h> {
    dec: &'d mut Decoder<'h>,
    kind: Kind,
    source: Source,
}

/// The entries of `v` if it is a collection this module recognises (`None` otherwise).
pub fn entries<'d, 'h>(
    dec: &'d mut Decoder<'h>,
    v: &LazyValue,
) -> Result<Option<Entries<'d, 'h>>, DecodeError> {
    let Some(ty) = dec.type_of(v)? else {
        return Ok(None);
    };
    match &*ty {
        Type::Array { .. } => {
            let len = dec.len(v)?;
            Ok(Some(Entries {
                dec,
                kind: Kind::Array,
                source: Source::Array {
                    array: v.clone(),
                    len,
                    next: 0,
                },
            }))
        }
        Type::Object { fields, .. }
            if fields.len() == 2
                && fields.iter().any(|f| &*f.label == "root")
                && fields.iter().any(|f| &*f.label == "size") =>
        {
            let root = dec.field(v, "root")?;
            let Some(kind) = tree_kind(dec, &root)? else {
                return Ok(None);
            };
            let slots = if kind == Kind::Map { "kvs" } else { "elements" };
            let mut out = Entries {
                dec,
                kind,
                source: Source::Tree {
                    slots,
                    stack: Vec::new(),
                },
            };
            out.push_node(&root)?;
            Ok(Some(out))
        }
        _ => Ok(None),
    }
}

/// `Map` or `Set` if `root`'s type is a B-tree node whose data holds `kvs` or `elements`.
fn tree_kind(dec: &mut Decoder<'_>, root: &LazyValue) -> Result<Option<Kind>, DecodeError> {
    let Some(ty) = dec.type_of(root)? else {
        return Ok(None);
    };
    let Type::Variant(tags) = &*ty else {
        return Ok(None);
    };
    let Some(leaf) = tags.iter().find(|t| &*t.label == "leaf") else {
        return Ok(None);
    };
    if !tags.iter().any(|t| &*t.label == "internal") {
        return Ok(None);
    }
    let Type::Object { fields, .. } = &*dec.env.normalize(&leaf.ty)? else {
        return Ok(None);
    };
    let Some(data) = fields.iter().find(|f| &*f.label == "data") else {
        return Ok(None);
    };
    let Type::Object { fields, .. } = &*dec.env.normalize(&data.ty)? else {
        return Ok(None);
    };
    if fields.iter().any(|f| &*f.label == "kvs") {
        Ok(Some(Kind::Map))
    } else if fields.iter().any(|f| &*f.label == "elements") {
        Ok(Some(Kind::Set))
    } else {
        Ok(None)
    }
}

impl<'h> Entries<'_, 'h> {
    /// The kind of collection.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The decoder the entries are read with (to compare or render their parts).
    pub fn decoder(&mut self) -> &mut Decoder<'h> {
        self.dec
    }

    /// Reads node `node` (`#leaf {data}` or `#internal {data; children}`) onto the stack.
    fn push_node(&mut self, node: &LazyValue) -> Result<(), DecodeError> {
        let Source::Tree { slots, stack } = &mut self.source else {
            return Ok(());
        };
        if stack.len() >= MAX_LEVELS {
            return Err(DecodeError::Mismatch {
                word: node.word,
                addr: None,
                expected: format!("a B-tree of at most {MAX_LEVELS} levels"),
                found: "a deeper one".into(),
            });
        }
        let head = self.dec.shallow(node)?;
        let Value::Variant { tag, payload, .. } = &head else {
            return Err(DecodeError::Mismatch {
                word: node.word,
                addr: None,
                expected: "a B-tree node".into(),
                found: "another value".into(),
            });
        };
        let Value::Lazy(body) = &**payload else {
            return Ok(());
        };
        let data = self.dec.field(body, "data")?;
        let array = self.dec.field(&data, slots)?;
        let count_field = self.dec.field(&data, "count")?;
        let count = match &self.dec.shallow(&count_field)? {
            Value::Nat(n) => u64::try_from(n).unwrap_or(u64::MAX),
            _ => 0,
        };
        let len = self.dec.len(&array)?.min(count);
        let mut node_slots = Vec::with_capacity(len as usize);
        for i in 0..len {
            node_slots.push(self.dec.element(&array, i)?);
        }
        let mut children = Vec::new();
        if &**tag == "internal" {
            let ch = self.dec.field(body, "children")?;
            let n = self.dec.len(&ch)?.min(len + 1);
            for i in 0..n {
                children.push(self.dec.element(&ch, i)?);
            }
        }
        stack.push(Node {
            slots: node_slots,
            children,
            next_slot: 0,
            next_child: 0,
        });
        Ok(())
    }

    /// The next entry, `None` after the last.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Option<Entry>, DecodeError> {
        match &mut self.source {
            Source::Array { array, len, next } => {
                if *next >= *len {
                    return Ok(None);
                }
                let i = *next;
                *next += 1;
                let array = array.clone();
                let value = self.dec.element(&array, i)?;
                Ok(Some(Entry {
                    key: Key::Index(i),
                    value: Some(value),
                }))
            }
            Source::Tree { .. } => self.next_in_tree(),
        }
    }

    fn next_in_tree(&mut self) -> Result<Option<Entry>, DecodeError> {
        loop {
            let Source::Tree { stack, .. } = &mut self.source else {
                return Ok(None);
            };
            let Some(top) = stack.last_mut() else {
                return Ok(None);
            };
            if top.next_child <= top.next_slot && top.next_child < top.children.len() {
                let child = top.children[top.next_child].clone();
                top.next_child += 1;
                if let Value::Opt { value, .. } = &self.dec.shallow(&child)? {
                    if let Value::Lazy(node) = &**value {
                        self.push_node(node)?;
                    }
                }
                continue;
            }
            if top.next_slot < top.slots.len() {
                let slot = top.slots[top.next_slot].clone();
                top.next_slot += 1;
                let opt = self.dec.shallow(&slot)?;
                let Value::Opt { value, .. } = &opt else {
                    continue;
                };
                let Value::Lazy(inner) = &**value else {
                    continue;
                };
                let inner = inner.clone();
                if self.kind == Kind::Set {
                    return Ok(Some(Entry {
                        key: Key::Value(inner),
                        value: None,
                    }));
                }
                let key = self.dec.element(&inner, 0)?;
                let value = self.dec.element(&inner, 1)?;
                return Ok(Some(Entry {
                    key: Key::Value(key),
                    value: Some(value),
                }));
            }
            stack.pop();
        }
    }
}
