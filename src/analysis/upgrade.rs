//! What an upgrade did to the actor's stable variables: each variable of the old state and of
//! the upgraded one (`same`, `changed`, `added`, `removed`, `unknown`; values compared by
//! meaning, as `mo-mem diff` compares them) with its `debug_show` text before and after, and the data it lost (a removed variable, or one whose type changed and that
//! was re-initialised, as a classical runtime silently does), and the record fields and variant
//! tags that changed inside a variable's declared type (`super::type_changes`).

use crate::heap::render::write_debug_show_as;
use crate::heap::types::{parse_signature, StableSignature, Type, TypeEnv};
use crate::heap::value::{stable_variables, LazyValue};
use crate::module::{decompress_module, ModuleFacts};

use super::diff::values::{compare_on_two_threads, ValueChange};
use super::diff::vars::MAX_VALUE_PARTS;
use super::stable_compat::{compatible, Variance};
use super::type_changes::{type_changes, TypeChangeKind, TypeChanges};
use super::upgrade_unchanged::UnchangedWalk;
use std::sync::Arc;

use super::OpenedHeap;

/// How a variable fared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarChange {
    /// Same type, same value (compared part for part, never by address).
    Same,
    /// In both states, with another value or type.
    Changed,
    /// Only in the upgraded state.
    Added,
    /// Only in the old state.
    Removed,
    /// Same type, values not compared to the end (too large, or a part does not decode).
    Unknown,
}

impl VarChange {
    /// `same`, `changed`, `added` or `removed`.
    pub fn name(self) -> &'static str {
        match self {
            VarChange::Same => "same",
            VarChange::Changed => "changed",
            VarChange::Added => "added",
            VarChange::Removed => "removed",
            VarChange::Unknown => "unknown",
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
    /// The record fields and variant tags added, removed or retyped inside its declared type
    /// (empty when the type is the same, or the variable is only in one state).
    pub type_changes: TypeChanges,
    /// Whether Motoko's upgrade rules accept the variable's change of declared type
    /// (`super::stable_compat`, as moc's stable-signature check): `Some(false)` for a
    /// variable dropped, one retyped to a type that is not a stable supertype of the old, or
    /// one the new program's migration requires that the old state lacks; `None` undecided.
    pub compatible: Option<bool>,
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

/// Most value nodes decoded for one variable's `debug_show` text in the report: a larger value
/// is shown as `<not shown: ...>` (its comparison still runs, up to [`MAX_VALUE_PARTS`]), so
/// the report's memory stays small beside the heap's.
pub const MAX_SHOWN_NODES: u64 = 1 << 20;

/// One stable variable of a state: its name, declared type, `debug_show` text (or the reason
/// it does not decode) and its value, to compare by meaning.
struct StateVar {
    name: String,
    ty: String,
    parsed: Arc<Type>,
    text: String,
    value: LazyValue,
}

/// Every stable variable of a state.
fn state_vars(heap: &OpenedHeap, which: &'static str) -> Result<Vec<StateVar>, UpgradeVarsError> {
    let err = |error| UpgradeVarsError::Vars { which, error };
    let sig = heap.signature().map_err(|e| err(e.clone()))?;
    let vars = stable_variables(heap.heap(), sig).map_err(err)?;
    let mut decoder = heap.decoder().map_err(|e| err(e.clone()))?;
    decoder.set_max_nodes(MAX_SHOWN_NODES);
    let floats = heap.heap().float_style();
    Ok(vars
        .iter()
        .map(|v| {
            let text = match decoder.deep(&v.value) {
                Ok(value) => {
                    let mut out = String::new();
                    write_debug_show_as(&value, floats, &mut out);
                    out
                }
                Err(e) => format!("<not shown: {e}>"),
            };
            StateVar {
                name: v.name.to_string(),
                ty: v.ty.to_string(),
                parsed: v.ty.clone(),
                text,
                value: v.value.clone(),
            }
        })
        .collect())
}

/// How a variable present in both states fared: `changed` when its declared type changed,
/// else its two values compared by meaning (`analysis::diff::values::compare`: part for part,
/// never by address, so objects a classical upgrade moved or rebuilt compare equal), `unknown`
/// when the comparison could not be made to the end (more than [`MAX_VALUE_PARTS`] parts, or
/// a part that does not decode).
///
/// With enhanced orthogonal persistence, a value whose word is the same in both states and
/// whose objects have the same bytes (`super::upgrade_unchanged`, `unchanged`) is `same`
/// without that comparison, when its declared type is the same type in both signatures.
fn classify(
    (before, old_env): (&OpenedHeap, &TypeEnv),
    old: &StateVar,
    (after, new_env): (&OpenedHeap, &TypeEnv),
    new: &StateVar,
    unchanged: Option<&mut UnchangedWalk<'_>>,
) -> VarChange {
    if !same_declared_type(
        (&old.ty, &old.parsed, old_env),
        (&new.ty, &new.parsed, new_env),
    ) {
        return VarChange::Changed;
    }
    let same_type =
        || compatible(&old.parsed, old_env, &new.parsed, new_env, Variance::Same) == Some(true);
    if let Some(walk) = unchanged {
        if old.value.word == new.value.word && same_type() && walk.unchanged(new.value.word) {
            return VarChange::Same;
        }
    }
    let change = compare_on_two_threads(
        &mut before.any_decoder(),
        old.value.clone(),
        &mut after.any_decoder(),
        new.value.clone(),
        MAX_VALUE_PARTS,
    );
    match change {
        ValueChange::Same => VarChange::Same,
        ValueChange::Changed { .. } => VarChange::Changed,
        ValueChange::Unknown(_) => VarChange::Unknown,
    }
}

/// Whether a variable's declared types are the same: the same text, or another text of the
/// same type (moc names an alias `List__777583915` where an older build said `List`; an alias
/// renamed), by Motoko's structural equality. (The same text may still hide an alias whose
/// body changed: the callers look inside.)
fn same_declared_type(
    (old_text, old, old_env): (&str, &Arc<Type>, &TypeEnv),
    (new_text, new, new_env): (&str, &Arc<Type>, &TypeEnv),
) -> bool {
    old_text == new_text || compatible(old, old_env, new, new_env, Variance::Same) == Some(true)
}

/// Every stable variable of `before` (the old state) and `after` (the upgraded state), sorted
/// by name.
pub fn compare_vars(
    before: &OpenedHeap,
    after: &OpenedHeap,
) -> Result<Vec<VarDiff>, UpgradeVarsError> {
    // the two states decoded side by side (two cores)
    let (old, new) = std::thread::scope(|scope| {
        let old = scope.spawn(|| state_vars(before, "old"));
        let new = state_vars(after, "upgraded");
        let old = old
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (old, new)
    });
    let (old, new) = (old?, new?);
    let migrated = after.signature().ok().map_or_else(Vec::new, migrated_names);
    let (old_env, new_env) = (env_of(before), env_of(after));
    let verdict = |name: &str, ty: Option<&Arc<Type>>| {
        after
            .signature()
            .ok()
            .and_then(|sig| var_compatible(name, ty, &old_env, sig))
    };
    let mut out: Vec<VarDiff> = Vec::with_capacity(old.len().max(new.len()));
    let mut unchanged = UnchangedWalk::new(before.heap(), after.heap());
    for o in &old {
        let found = new.iter().find(|n| n.name == o.name);
        let change = match found {
            None => VarChange::Removed,
            Some(n) => classify(
                (before, &old_env),
                o,
                (after, &new_env),
                n,
                unchanged.as_mut(),
            ),
        };
        out.push(VarDiff {
            name: o.name.clone(),
            change,
            before: Some(o.text.clone()),
            after: found.map(|n| n.text.clone()),
            type_before: Some(o.ty.clone()),
            type_after: found.map(|n| n.ty.clone()),
            migrated: migrated.contains(&o.name),
            type_changes: found.map_or_else(TypeChanges::default, |n| {
                type_changes(&o.name, &o.parsed, &old_env, &n.parsed, &new_env)
            }),
            compatible: verdict(&o.name, Some(&o.parsed)),
        });
    }
    for n in &new {
        if !old.iter().any(|o| o.name == n.name) {
            out.push(VarDiff {
                name: n.name.clone(),
                change: VarChange::Added,
                before: None,
                after: Some(n.text.clone()),
                type_before: None,
                type_after: Some(n.ty.clone()),
                migrated: false,
                type_changes: TypeChanges::default(),
                compatible: verdict(&n.name, None),
            });
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// The aliases of a state's signature (none if it does not parse).
fn env_of(heap: &OpenedHeap) -> TypeEnv {
    heap.signature().map(|s| s.env.clone()).unwrap_or_default()
}

/// Whether Motoko's upgrade rules accept variable `name` of the old state (of type `old`,
/// read in `old_env`; `None`: only in the new program) when the new program's signature is
/// `new`: as moc matches stable signatures, the old variables against the new program's
/// input (its migration function's input record, else its variables): a variable dropped is
/// refused, one kept must have a stable subtype of its new type, a new one is accepted unless
/// the migration requires it (`in`).
fn var_compatible(
    name: &str,
    old: Option<&Arc<Type>>,
    old_env: &TypeEnv,
    new: &StableSignature,
) -> Option<bool> {
    let input = new.pre.as_deref().unwrap_or(&new.vars);
    let found = input.iter().find(|v| *v.name == *name);
    match (old, found) {
        (Some(_), None) => Some(false),
        (Some(t), Some(v)) => compatible(t, old_env, &v.ty, &new.env, Variance::Sub),
        (None, Some(v)) => Some(!v.in_only),
        (None, None) => Some(true),
    }
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
/// retyped and re-initialised (its type changed to one Motoko's upgrade rules do not accept,
/// or whose verdict is undecided); a variable the new program's migration function consumed
/// is not lost, nor one retyped compatibly (`Nat` to `Int`, a tag added: the runtime keeps
/// its value).
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
            VarChange::Changed
                if v.type_before != v.type_after && v.compatible != Some(true) =>
            {
                if let Some(fields) = dropped_fields_only(v) {
                    return Some(format!(
                        "`{}` changed type ({} to {}): the fields it dropped ({}) are lost from its value {} (now {})",
                        v.name,
                        show(&v.type_before),
                        show(&v.type_after),
                        fields.join(", "),
                        show(&v.before),
                        show(&v.after)
                    ));
                }
                Some(format!(
                "`{}` changed type ({} to {}) and was re-initialised: its value {} is lost (now {})",
                v.name,
                show(&v.type_before),
                show(&v.type_after),
                show(&v.before),
                show(&v.after)
            ))
            }
            _ => None,
        })
        .collect()
}

/// The paths of the record fields `v`'s new type dropped, when those are its only
/// incompatible changes: a classical runtime's Candid decoding keeps the rest of the value
/// (a record may lose fields), so only they are lost.
fn dropped_fields_only(v: &VarDiff) -> Option<Vec<String>> {
    let changes = &v.type_changes;
    let refused: Vec<_> = changes
        .changes
        .iter()
        .filter(|c| c.compatible != Some(true))
        .collect();
    // a field's path ends in `.label`, a tag's in `#label`; a field of a function's argument
    // or result (`(arg)`, `(result)` on its path) is no part of a value
    let is_field = |path: &str| {
        !path.contains('(')
            && match (path.rfind('.'), path.rfind('#')) {
                (Some(dot), Some(hash)) => dot > hash,
                (dot, _) => dot.is_some(),
            }
    };
    let all_fields = refused
        .iter()
        .all(|c| c.change == TypeChangeKind::Removed && is_field(&c.path));
    (changes.complete && !refused.is_empty() && all_fields)
        .then(|| refused.iter().map(|c| c.path.clone()).collect())
}

/// Every stable variable of the old state and of the new module's `motoko:stable-types`
/// signature (`new_module`, gzip'ed or not), compared by declared type only (what a static
/// check sees, when the upgrade did not run to the end): `before` is the old value, `after`
/// is `None`; `changed` when the type's text or anything inside it (an alias's body)
/// differs, the fields and tags that did named in `type_changes`.
pub fn compare_types(
    before: &OpenedHeap,
    new_module: &[u8],
) -> Result<Vec<VarDiff>, UpgradeVarsError> {
    let new_sig = new_signature(new_module).map_err(UpgradeVarsError::NewSignature)?;
    let old = state_vars(before, "old")?;
    let old_env = env_of(before);
    let migrated = migrated_names(&new_sig);
    let mut out: Vec<VarDiff> = Vec::with_capacity(old.len().max(new_sig.vars.len()));
    for o in &old {
        let found = new_sig
            .vars
            .iter()
            .find(|v| !v.in_only && *v.name == *o.name);
        let inside = found.map_or_else(TypeChanges::default, |v| {
            type_changes(&o.name, &o.parsed, &old_env, &v.ty, &new_sig.env)
        });
        let type_after = found.map(|v| v.ty.to_string());
        // the same text with an alias whose body changed is a change too
        let change = match (found, &type_after) {
            (Some(v), Some(text))
                if inside.changes.is_empty()
                    && same_declared_type(
                        (&o.ty, &o.parsed, &old_env),
                        (text, &v.ty, &new_sig.env),
                    ) =>
            {
                VarChange::Same
            }
            (Some(_), _) => VarChange::Changed,
            (None, _) => VarChange::Removed,
        };
        out.push(VarDiff {
            name: o.name.clone(),
            change,
            before: Some(o.text.clone()),
            after: None,
            type_before: Some(o.ty.clone()),
            type_after,
            migrated: migrated.contains(&o.name),
            type_changes: inside,
            compatible: var_compatible(&o.name, Some(&o.parsed), &old_env, &new_sig),
        });
    }
    for v in new_sig.vars.iter().filter(|v| !v.in_only) {
        if !old.iter().any(|o| *o.name == *v.name) {
            out.push(VarDiff {
                name: v.name.to_string(),
                change: VarChange::Added,
                before: None,
                after: None,
                type_before: None,
                type_after: Some(v.ty.to_string()),
                migrated: false,
                type_changes: TypeChanges::default(),
                compatible: var_compatible(&v.name, None, &old_env, &new_sig),
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
