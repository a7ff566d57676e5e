//! Keys added, removed and changed between two versions of one collection: the old side's
//! entries are read into a table (key text → value fingerprint, in order), the new side's
//! are looked up in it one at a time. Both sides are bounded by [`CollectionLimits`].

use std::collections::HashMap;

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
    /// Value nodes of one key (keys are rendered as text).
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
    /// `map`, `set` or `array`.
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
/// [`entries`] recognises, or they are of different kinds).
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
    if old_entries.kind() != new_entries.kind() {
        return None;
    }
    Some(compare_entries(old_entries, new_entries, limits))
}

/// One side's entry: its key's text and its value's fingerprint (0 for a set); the parts
/// read are taken from `left`.
fn read_entry(
    side: &mut Entries<'_, '_>,
    limits: CollectionLimits,
    left: &mut u64,
) -> Result<Option<(String, u64)>, CollectionError> {
    let Some(entry) = side.next()? else {
        return Ok(None);
    };
    let dec = side.decoder();
    let key = match entry.key {
        Key::Index(i) => i.to_string(),
        Key::Value(k) => {
            dec.set_max_nodes(limits.max_key_nodes);
            debug_show(&dec.deep(&k)?)
        }
    };
    let print = match entry.value {
        Some(v) => {
            let (print, parts) =
                fingerprint(dec, v, limits.max_value_parts.min(*left)).map_err(|e| match e {
                    WalkStop::Budget(_) if *left < limits.max_value_parts => {
                        CollectionError::Budget(limits.max_total_parts)
                    }
                    e => e.into(),
                })?;
            *left -= parts;
            print
        }
        None => 0,
    };
    Ok(Some((key, print)))
}

fn compare_entries(
    mut old: Entries<'_, '_>,
    mut new: Entries<'_, '_>,
    limits: CollectionLimits,
) -> Result<CollectionDiff, CollectionError> {
    let kind = old.kind();
    let mut left = limits.max_total_parts;
    let mut order: Vec<(String, u64)> = Vec::new();
    while let Some(e) = read_entry(&mut old, limits, &mut left)? {
        if order.len() as u64 >= limits.max_entries {
            return Err(CollectionError::TooMany(limits.max_entries));
        }
        order.push(e);
    }
    let index: HashMap<&str, usize> = order
        .iter()
        .enumerate()
        .map(|(i, (k, _))| (k.as_str(), i))
        .collect();
    let mut seen = vec![false; order.len()];
    let mut keys = KeyChanges::default();
    let mut new_count = 0u64;
    while let Some((key, print)) = read_entry(&mut new, limits, &mut left)? {
        new_count += 1;
        if new_count > limits.max_entries {
            return Err(CollectionError::TooMany(limits.max_entries));
        }
        match index.get(key.as_str()) {
            None => {
                keys.added += 1;
                keys.first_added.get_or_insert(key);
            }
            Some(&i) => {
                seen[i] = true;
                if order[i].1 != print {
                    keys.changed += 1;
                    keys.first_changed.get_or_insert(key);
                }
            }
        }
    }
    for (i, (key, _)) in order.iter().enumerate() {
        if !seen[i] {
            keys.removed += 1;
            if keys.first_removed.is_none() {
                keys.first_removed = Some(key.clone());
            }
        }
    }
    Ok(CollectionDiff {
        kind,
        old_entries: order.len() as u64,
        new_entries: new_count,
        keys,
    })
}
