//! What an upgrade did to the actor's stable variables: each variable of the old state and of
//! the upgraded one (`same`, `changed`, `added`, `removed`) with its `debug_show` text before
//! and after, and the data it lost (a removed variable, or one whose type changed and that
//! was re-initialised, as a classical runtime silently does).

use crate::heap::render::write_debug_show;
use crate::heap::types::{parse_signature, StableSignature};
use crate::heap::value::stable_variables;
use crate::module::{decompress_module, ModuleFacts};

use super::OpenedHeap;

/// How a variable fared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarChange {
    /// Same type, same value.
    Same,
    /// In both states, with another value or type.
    Changed,
    /// Only in the upgraded state.
    Added,
    /// Only in the old state.
    Removed,
}

impl VarChange {
    /// `same`, `changed`, `added` or `removed`.
    pub fn name(self) -> &'static str {
        match self {
            VarChange::Same => "same",
            VarChange::Changed => "changed",
            VarChange::Added => "added",
            VarChange::Removed => "removed",
        }
    }
}

/// One stable variable before and after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VarDiff {
    /// Its name.
    pub name: String,
    /// How it fared.
    pub change: VarChange,
    /// Its `debug_show` text in the old state (or why it does not decode).
    pub before: Option<String>,
    /// Its `debug_show` text in the upgraded state (or why it does not decode).
    pub after: Option<String>,
    /// Its declared type in the old program.
    pub type_before: Option<String>,
    /// Its declared type in the new program.
    pub type_after: Option<String>,
    /// Whether the new program's migration function consumed it (`with migration`: an `in`
    /// field of its signature's input record): a change the program asked for, not a loss.
    pub migrated: bool,
}

/// Why the variables could not be compared.
#[derive(Debug, thiserror::Error)]
pub enum UpgradeVarsError {
    /// A state's stable signature or variables do not decode.
    #[error("the {which} state's stable variables: {error}")]
    Vars {
        /// `old` or `upgraded`.
        which: &'static str,
        /// Why.
        error: crate::heap::value::DecodeError,
    },
    /// The new module's stable signature cannot be read.
    #[error("the new module's stable types: {0}")]
    NewSignature(String),
}

/// `(name, type, debug_show text or the reason it does not decode)` of every stable variable.
fn texts(
    heap: &OpenedHeap,
    which: &'static str,
) -> Result<Vec<(String, String, String)>, UpgradeVarsError> {
    let err = |error| UpgradeVarsError::Vars { which, error };
    let sig = heap.signature().map_err(|e| err(e.clone()))?;
    let vars = stable_variables(heap.heap(), sig).map_err(err)?;
    let mut decoder = heap.decoder().map_err(|e| err(e.clone()))?;
    Ok(vars
        .iter()
        .map(|v| {
            let text = match decoder.deep(&v.value) {
                Ok(value) => {
                    let mut out = String::new();
                    write_debug_show(&value, &mut out);
                    out
                }
                Err(e) => format!("<does not decode: {e}>"),
            };
            (v.name.to_string(), v.ty.to_string(), text)
        })
        .collect())
}

/// Whether two `debug_show` texts show the same value: equal but for the addresses of their
/// `<cycle 0x…>` markers (a value with cycles, such as a doubly linked list, moves when a
/// classical upgrade rebuilds the heap).
fn same_text(a: &str, b: &str) -> bool {
    a == b || mask_cycles(a) == mask_cycles(b)
}

/// `text` with the address of every `<cycle 0x…>` marker left out.
fn mask_cycles(text: &str) -> String {
    const MARK: &str = "<cycle 0x";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(MARK) {
        out.push_str(&rest[..i + MARK.len()]);
        rest = rest[i + MARK.len()..].trim_start_matches(|c: char| c.is_ascii_hexdigit());
    }
    out.push_str(rest);
    out
}

/// Every stable variable of `before` (the old state) and `after` (the upgraded state), sorted
/// by name.
pub fn compare_vars(
    before: &OpenedHeap,
    after: &OpenedHeap,
) -> Result<Vec<VarDiff>, UpgradeVarsError> {
    let old = texts(before, "old")?;
    let new = texts(after, "upgraded")?;
    let migrated = after.signature().ok().map_or_else(Vec::new, migrated_names);
    let mut out: Vec<VarDiff> = Vec::with_capacity(old.len().max(new.len()));
    for (name, ty, text) in &old {
        let found = new.iter().find(|(n, _, _)| n == name);
        let change = match found {
            None => VarChange::Removed,
            Some((_, t, v)) if t == ty && same_text(v, text) => VarChange::Same,
            Some(_) => VarChange::Changed,
        };
        out.push(VarDiff {
            name: name.clone(),
            change,
            before: Some(text.clone()),
            after: found.map(|(_, _, v)| v.clone()),
            type_before: Some(ty.clone()),
            type_after: found.map(|(_, t, _)| t.clone()),
            migrated: migrated.contains(name),
        });
    }
    for (name, ty, text) in &new {
        if !old.iter().any(|(n, _, _)| n == name) {
            out.push(VarDiff {
                name: name.clone(),
                change: VarChange::Added,
                before: None,
                after: Some(text.clone()),
                type_before: None,
                type_after: Some(ty.clone()),
                migrated: false,
            });
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// The variables a signature's migration function consumes (the `in` fields of its input
/// record).
fn migrated_names(sig: &StableSignature) -> Vec<String> {
    sig.pre
        .iter()
        .flatten()
        .filter(|v| v.in_only)
        .map(|v| v.name.to_string())
        .collect()
}

/// One sentence per variable whose value the upgrade lost: removed from the program, or
/// retyped and re-initialised (its type changed and its value is not the old one); a
/// variable the new program's migration function consumed is not lost.
pub fn data_loss(vars: &[VarDiff]) -> Vec<String> {
    let show = |s: &Option<String>| s.clone().unwrap_or_default();
    vars.iter()
        .filter(|v| !v.migrated)
        .filter_map(|v| match v.change {
            VarChange::Removed => Some(format!(
                "`{}` is not in the new program: its value {} is lost",
                v.name,
                show(&v.before)
            )),
            VarChange::Changed if v.type_before != v.type_after => Some(format!(
                "`{}` changed type ({} to {}) and was re-initialised: its value {} is lost (now {})",
                v.name,
                show(&v.type_before),
                show(&v.type_after),
                show(&v.before),
                show(&v.after)
            )),
            _ => None,
        })
        .collect()
}

/// Every stable variable of the old state and of the new module's `motoko:stable-types`
/// signature (`new_module`, gzip'ed or not), compared by declared type only (what a static
/// check sees, when the upgrade did not run to the end): `before` is the old value, `after`
/// is `None`.
pub fn compare_types(
    before: &OpenedHeap,
    new_module: &[u8],
) -> Result<Vec<VarDiff>, UpgradeVarsError> {
    let new_sig = new_signature(new_module).map_err(UpgradeVarsError::NewSignature)?;
    let old = texts(before, "old")?;
    let migrated = migrated_names(&new_sig);
    let mut out: Vec<VarDiff> = Vec::with_capacity(old.len().max(new_sig.vars.len()));
    for (name, ty, text) in &old {
        let found = new_sig
            .vars
            .iter()
            .find(|v| !v.in_only && *v.name == **name)
            .map(|v| v.ty.to_string());
        let change = match &found {
            None => VarChange::Removed,
            Some(t) if t == ty => VarChange::Same,
            Some(_) => VarChange::Changed,
        };
        out.push(VarDiff {
            name: name.clone(),
            change,
            before: Some(text.clone()),
            after: None,
            type_before: Some(ty.clone()),
            type_after: found,
            migrated: migrated.contains(name),
        });
    }
    for v in new_sig.vars.iter().filter(|v| !v.in_only) {
        if !old.iter().any(|(n, _, _)| **n == *v.name) {
            out.push(VarDiff {
                name: v.name.to_string(),
                change: VarChange::Added,
                before: None,
                after: None,
                type_before: None,
                type_after: Some(v.ty.to_string()),
                migrated: false,
            });
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// The parsed `motoko:stable-types` signature of a (maybe gzip'ed) module.
fn new_signature(module: &[u8]) -> Result<StableSignature, String> {
    let wasm = decompress_module(module).map_err(|e| e.to_string())?;
    let facts = ModuleFacts::parse(&wasm).map_err(|e| e.to_string())?;
    let text = facts
        .stable_types
        .ok_or_else(|| "no motoko:stable-types section".to_string())?;
    parse_signature(&text).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycle_addresses_do_not_make_a_change() {
        let a = "{back = ?{previous = ?<cycle 0x242a64>; value = 1}}";
        assert!(same_text(
            a,
            "{back = ?{previous = ?<cycle 0x1f0>; value = 1}}"
        ));
        assert!(!same_text(
            a,
            "{back = ?{previous = ?<cycle 0x242a64>; value = 2}}"
        ));
        assert!(!same_text("<cycle 0x1>", "<cycle 0x1> x"));
        assert_eq!(mask_cycles("<cycle 0xab"), "<cycle 0x");
    }
}
