//! The entries of a collection held by a variable, in order, read lazily from the heap:
//! every collection the heap layer recognises (`heap::collections`: `mo:core`'s Map, Set,
//! List, Queue, Stack, PriorityQueue and pure Map, Set, List, Queue, RealTimeQueue,
//! `mo:base`'s Trie, RBTree tree, List and AssocList) and arrays. [`entries`] is the one
//! place that says how the diff matches a collection's entries ([`Kind`]).
//!
//! The walk is the heap layer's [`EntryWalk`]: one node at a time, an explicit stack, every
//! read spending from the decoder's work budget (a hostile structure ends in a limit error).

use crate::heap::collections::{CollectionKind, EntryWalk, Item};
use crate::heap::types::Type;
use crate::heap::value::{DecodeError, Decoder, LazyValue};

/// How a collection's entries are matched between two snapshots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// By key, values compared: a map (`mo:core` Map, pure Map, `mo:base` Trie and RBTree).
    Map,
    /// Elements, with their multiplicity (a set, and the collections used from their ends:
    /// Queue, Stack, PriorityQueue, pure List, Queue and RealTimeQueue, `mo:base` List and
    /// AssocList): an element in one snapshot only is added or removed.
    Set,
    /// By index, values compared: `[T]`, `[var T]` and `mo:core` List.
    Array,
}

/// One entry's key.
#[derive(Debug, Clone, PartialEq)]
pub enum Key {
    /// An index (an array's or a `mo:core` List's).
    Index(u64),
    /// A map key, or an element.
    Value(LazyValue),
}

/// One entry: its key and, for a map or an indexed collection, its value.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The key (index, map key, element).
    pub key: Key,
    /// The value (`None` for an element).
    pub value: Option<LazyValue>,
}

enum Source {
    /// An array, read element by element.
    Array {
        array: LazyValue,
        len: u64,
        next: u64,
    },
    /// A recognised collection, walked in its own order; `next` counts its items.
    Walk { walk: EntryWalk, next: u64 },
}

/// The entries of one collection in order (a map's by key, a set's and a sequence's in the
/// collection's order, an array's by index).
pub struct Entries<'d, 'h> {
    dec: &'d mut Decoder<'h>,
    kind: Kind,
    name: &'static str,
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
    if let Type::Array { .. } = &*ty {
        let len = dec.len(v)?;
        return Ok(Some(Entries {
            dec,
            kind: Kind::Array,
            name: "Array",
            source: Source::Array {
                array: v.clone(),
                len,
                next: 0,
            },
        }));
    }
    let Some(collection) = crate::heap::collections::recognize(dec.env, &ty) else {
        return Ok(None);
    };
    Ok(Some(Entries {
        dec,
        kind: kind_of(collection),
        name: collection.name(),
        source: Source::Walk {
            walk: EntryWalk::new(v.clone(), collection),
            next: 0,
        },
    }))
}

/// How the entries of a collection of kind `c` are matched.
fn kind_of(c: CollectionKind) -> Kind {
    if c.is_map() {
        Kind::Map
    } else if c == CollectionKind::List {
        Kind::Array
    } else {
        Kind::Set
    }
}

impl<'h> Entries<'_, 'h> {
    /// How the entries are matched.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The collection's name as its users know it (`Map`, `pure/Map`, `Trie`, `Array`, ...).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The decoder the entries are read with (to compare or render their parts).
    pub fn decoder(&mut self) -> &mut Decoder<'h> {
        self.dec
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
                let value = self.dec.element(array, i)?;
                Ok(Some(Entry {
                    key: Key::Index(i),
                    value: Some(value),
                }))
            }
            Source::Walk { walk, next } => {
                let Some(item) = walk.next_item(self.dec).transpose()? else {
                    return Ok(None);
                };
                let i = *next;
                *next += 1;
                Ok(Some(match (item, self.kind) {
                    (Item::Entry { key, value, .. }, _) => Entry {
                        key: Key::Value(key),
                        value: Some(value),
                    },
                    (Item::Element(x), Kind::Array) => Entry {
                        key: Key::Index(i),
                        value: Some(x),
                    },
                    (Item::Element(x), _) => Entry {
                        key: Key::Value(x),
                        value: None,
                    },
                }))
            }
        }
    }
}
