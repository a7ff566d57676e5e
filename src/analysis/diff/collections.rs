//! Keys added, removed and changed between two versions of one collection: each side's
//! entries are read in order as (key fingerprint, value fingerprint) pairs (128-bit hashes of
//! their canonical walks, no text), both sides are sorted by key fingerprint and merged.
//! Only the first added, removed and changed keys are rendered as text. Both sides are
//! bounded by [`CollectionLimits`].

use serde::Serialize;

use crate::heap::render::debug_show;
use crate::heap::value::{DecodeError, Decoder, LazyValue};

use super::canon::WalkStop;
use super::entries::{entries, Entries, Key, Kind};
use super::values::fingerprint;

/// How much of a collection is compared.
#[derive(Debug, Clone, Copy)]
pub struct CollectionLimits {
    /// Entries read per side.
    pub max_entries: u64,
    /// Parts of one key (fingerprinted; the first keys shown are decoded to this many nodes).
    pub max_key_nodes: u64,
    /// Parts of one value (fingerprinted).
    pub max_value_parts: u64,
    /// Parts of all values of both sides together.
    pub max_total_parts: u64,
}

impl Default for CollectionLimits {
    fn default() -> Self {
        CollectionLimits {
            max_entries: 1 << 23,
            max_key_nodes: 1 << 12,
            max_value_parts: 1 << 16,
            max_total_parts: 1 << 22,
        }
    }
}

/// How many keys changed and the first of each kind (in the collection's order).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct KeyChanges {
    /// Keys (elements, indexes) only in the new collection.
    pub added: u64,
    /// Keys only in the old one.
    pub removed: u64,
    /// Keys in both whose value differs.
    pub changed: u64,
    /// The first added key as `debug_show` prints it (an index for an array).
    pub first_added: Option<String>,
    /// The first removed key.
    pub first_removed: Option<String>,
    /// The first changed key.
    pub first_changed: Option<String>,
}

/// The comparison of one collection: its kind, sizes and key changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CollectionDiff {
    /// The collection as its users know it: `Map`, `Set`, `List`, `pure/Map`, `Trie`,
    /// `Array`, ... (`heap::collections::CollectionKind::name`).
    pub collection: &'static str,
    /// How entries are matched: `map` (by key), `set` (elements, with multiplicity) or
    /// `array` (by index).
    pub kind: Kind,
    /// Entries before.
    pub old_entries: u64,
    /// Entries after.
    pub new_entries: u64,
    /// What changed.
    #[serde(flatten)]
    pub keys: KeyChanges,
}

/// Why two collections could not be compared.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CollectionError {
    /// An entry could not be read.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// A key or value is larger than the limits allow.
    #[error(transparent)]
    Walk(#[from] WalkStop),
    /// More entries than [`CollectionLimits::max_entries`].
    #[error("more than {0} entries")]
    TooMany(u64),
    /// The values together have more parts than [`CollectionLimits::max_total_parts`].
    #[error("values of more than {0} parts")]
    Budget(u64),
}

/// Compares the collections `old` and `new` (`None` if either is not a collection
/// [`entries`] recognises, or they are different collections).
pub fn compare_collections(
    old_dec: &mut Decoder<'_>,
    old: &LazyValue,
    new_dec: &mut Decoder<'_>,
    new: &LazyValue,
    limits: CollectionLimits,
) -> Option<Result<CollectionDiff, CollectionError>> {
    let old_entries = match entries(old_dec, old) {
        Ok(Some(e)) => e,
        Ok(None) => return None,
        Err(e) => return Some(Err(e.into())),
    };
    let new_entries = match entries(new_dec, new) {
        Ok(Some(e)) => e,
        Ok(None) => return None,
        Err(e) => return Some(Err(e.into())),
    };
    if old_entries.name() != new_entries.name() {
        return None;
    }
    Some(compare_entries(old_entries, new_entries, limits))
}

/// One side's entries in order: each key's and value's fingerprint, and where to find the
/// key again to show it (only the first added, removed and changed keys are ever rendered).
struct Side {
    /// Per entry, in order: the key's fingerprint and the value's (0 for a set).
    prints: Vec<(u128, u128)>,
    /// Per entry: the key's word (a map's or set's keys share one static type) or index.
    keys: Vec<u64>,
    /// The keys' static type (`None`: untyped, or an array's indexes).
    key_ty: Option<std::sync::Arc<crate::heap::types::Type>>,
    /// Whether keys are indexes.
    indexes: bool,
}

impl Side {
    /// Entry `i`'s key as `debug_show` prints it (an index for an array).
    fn key_text(&self, dec: &mut Decoder<'_>, i: usize, limits: CollectionLimits) -> String {
        let Some(&word) = self.keys.get(i) else {
            return String::new();
        };
        if self.indexes {
            return word.to_string();
        }
        let key = LazyValue {
            word,
            ty: self.key_ty.clone(),
        };
        dec.set_max_nodes(limits.max_key_nodes);
        match dec.deep(&key) {
            Ok(v) => debug_show(&v),
            Err(e) => format!("<{e}>"),
        }
    }
}

/// Reads every entry of `side` (at most `limits.max_entries`), its values' parts taken from
/// `left`.
fn read_side(
    side: &mut Entries<'_, '_>,
    limits: CollectionLimits,
    left: &mut u64,
) -> Result<Side, CollectionError> {
    let mut out = Side {
        prints: Vec::new(),
        keys: Vec::new(),
        key_ty: None,
        indexes: side.kind() == Kind::Array,
    };
    while let Some(entry) = side.next()? {
        let dec = side.decoder();
        let (key_print, key_word) = match entry.key {
            Key::Index(i) => (u128::from(i), i),
            Key::Value(k) => {
                if out.key_ty.is_none() {
                    out.key_ty = k.ty.clone();
                }
                let word = k.word;
                let print = match entry.value {
                    Some(_) => fingerprint(dec, k, limits.max_key_nodes)?.0,
                    // an element is compared whole, as a value is
                    None => value_print(dec, k, limits, left)?,
                };
                (print, word)
            }
        };
        let value_print = match entry.value {
            Some(v) => value_print(dec, v, limits, left)?,
            None => 0,
        };
        if out.prints.len() as u64 >= limits.max_entries {
            return Err(CollectionError::TooMany(limits.max_entries));
        }
        out.prints.push((key_print, value_print));
        out.keys.push(key_word);
    }
    Ok(out)
}

/// The fingerprint of value (or element) `v`, its parts taken from `left`.
fn value_print(
    dec: &mut Decoder<'_>,
    v: LazyValue,
    limits: CollectionLimits,
    left: &mut u64,
) -> Result<u128, CollectionError> {
    let (print, parts) =
        fingerprint(dec, v, limits.max_value_parts.min(*left)).map_err(|e| match e {
            WalkStop::Budget(_) if *left < limits.max_value_parts => {
                CollectionError::Budget(limits.max_total_parts)
            }
            e => e.into(),
        })?;
    *left -= parts;
    Ok(print)
}

/// The keys of `old` and `new` matched by a merge of both sides sorted by key fingerprint:
/// the first added (changed) key is the one of least position in `new`, the first removed
/// the one of least position in `old`.
fn match_keys(old: &Side, new: &Side) -> (KeyCounts, [Option<usize>; 3]) {
    let sorted = |side: &Side| {
        let mut order: Vec<(u128, u32)> = side
            .prints
            .iter()
            .enumerate()
            .map(|(i, (k, _))| (*k, i as u32))
            .collect();
        order.sort_unstable();
        order
    };
    let (a, b) = (sorted(old), sorted(new));
    let mut counts = KeyCounts::default();
    let mut first: [Option<usize>; 3] = [None; 3];
    let least = |slot: &mut Option<usize>, i: u32| {
        let i = i as usize;
        if slot.is_none_or(|f| i < f) {
            *slot = Some(i);
        }
    };
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if x.0 == y.0 => {
                if old.prints[x.1 as usize].1 != new.prints[y.1 as usize].1 {
                    counts.changed += 1;
                    least(&mut first[2], y.1);
                }
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x.0 < y.0 => {
                counts.removed += 1;
                least(&mut first[1], x.1);
                i += 1;
            }
            (Some(x), None) => {
                counts.removed += 1;
                least(&mut first[1], x.1);
                i += 1;
            }
            (_, Some(y)) => {
                counts.added += 1;
                least(&mut first[0], y.1);
                j += 1;
            }
            (None, None) => break,
        }
    }
    (counts, first)
}

/// How many keys were added, removed and changed.
#[derive(Default)]
struct KeyCounts {
    added: u64,
    removed: u64,
    changed: u64,
}

fn compare_entries(
    mut old: Entries<'_, '_>,
    mut new: Entries<'_, '_>,
    limits: CollectionLimits,
) -> Result<CollectionDiff, CollectionError> {
    let (kind, collection) = (old.kind(), old.name());
    let mut left = limits.max_total_parts;
    let old_side = read_side(&mut old, limits, &mut left)?;
    let new_side = read_side(&mut new, limits, &mut left)?;
    let (counts, [added, removed, changed]) = match_keys(&old_side, &new_side);
    let keys = KeyChanges {
        added: counts.added,
        removed: counts.removed,
        changed: counts.changed,
        first_added: added.map(|i| new_side.key_text(new.decoder(), i, limits)),
        first_removed: removed.map(|i| old_side.key_text(old.decoder(), i, limits)),
        first_changed: changed.map(|i| new_side.key_text(new.decoder(), i, limits)),
    };
    Ok(CollectionDiff {
        collection,
        kind,
        old_entries: old_side.prints.len() as u64,
        new_entries: new_side.prints.len() as u64,
        keys,
    })
}
