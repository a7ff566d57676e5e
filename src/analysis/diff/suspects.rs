//! Growth suspects: the variables and types whose retained bytes grew most, each with a
//! path in the new snapshot (a variable's own, a type's largest retainer's).

use std::collections::HashMap;

use serde::Serialize;

use crate::analysis::OpenedHeap;

use super::row::BeforeAfter;
use super::types::TypeDiff;
use super::vars::VarDiff;

/// How many suspects a diff lists.
pub const MAX_SUSPECTS: usize = 10;

/// One variable or type that grew.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Suspect {
    /// `var` or `type`.
    pub kind: &'static str,
    /// The variable's or type's name.
    pub name: String,
    /// Retained bytes before.
    pub old_bytes: u64,
    /// Retained bytes after.
    pub new_bytes: u64,
    /// How much it grew.
    pub grew_bytes: u64,
    /// A path to it in the new snapshot (for a type: to its largest retainer).
    pub path: Option<String>,
}

/// The variables and types that grew, most first (at most [`MAX_SUSPECTS`]; a type whose
/// path is that of a suspect before it is left out).
pub fn suspects(vars: &[VarDiff], types: &[TypeDiff], new: &OpenedHeap) -> Vec<Suspect> {
    let vars = vars
        .iter()
        .filter_map(|v| grown("var", &v.name, v.row(), || Some(format!("vars.{}", v.name))));
    let types = types
        .iter()
        .filter(|t| t.typed)
        .filter_map(|t| grown("type", &t.name, t.row(), || None));
    let mut out: Vec<Suspect> = vars.chain(types).collect();
    // Most grown first; on a tie the variable before the type (`var` > `type`).
    out.sort_by(|a, b| (b.grew_bytes, b.kind, &a.name).cmp(&(a.grew_bytes, a.kind, &b.name)));
    out.truncate(2 * MAX_SUSPECTS);
    type_paths(&mut out, new);
    // A type whose largest retainer is a suspect listed already (`[Event]` at `vars.log`
    // after the variable `log`) says nothing new.
    let mut seen = std::collections::HashSet::new();
    out.retain(|s| s.path.as_ref().is_none_or(|p| seen.insert(p.clone())));
    out.truncate(MAX_SUSPECTS);
    out
}

/// The suspect `name` of `kind` if its retained bytes grew (`path` says where it is).
fn grown(
    kind: &'static str,
    name: &str,
    row: BeforeAfter,
    path: impl FnOnce() -> Option<String>,
) -> Option<Suspect> {
    let grew = u64::try_from(row.retained_delta())
        .ok()
        .filter(|&g| g > 0)?;
    Some(Suspect {
        kind,
        name: name.to_string(),
        old_bytes: row.old_retained(),
        new_bytes: row.new_retained(),
        grew_bytes: grew,
        path: path(),
    })
}

/// Fills each type suspect's path: the path to the object of that type retaining the most
/// (one pass over the new snapshot's objects).
fn type_paths(suspects: &mut [Suspect], new: &OpenedHeap) {
    let Ok(a) = new.analysis() else {
        return;
    };
    let mut best: HashMap<&str, (u64, u32)> = suspects
        .iter()
        .filter(|s| s.kind == "type")
        .map(|s| (s.name.as_str(), (0, u32::MAX)))
        .collect();
    if best.is_empty() {
        return;
    }
    let labels = a.labels(new);
    let doms = a.dominators();
    for n in 0..a.graph().nodes() as u32 {
        let Some(label) = labels.label(n) else {
            continue;
        };
        if let Some(b) = best.get_mut(&**label) {
            let r = doms.retained(n).bytes;
            if r > b.0 {
                *b = (r, n);
            }
        }
    }
    let found: HashMap<String, u32> = best
        .into_iter()
        .filter(|(_, (_, n))| *n != u32::MAX)
        .map(|(k, (_, n))| (k.to_string(), n))
        .collect();
    for s in suspects.iter_mut().filter(|s| s.kind == "type") {
        if let Some(&n) = found.get(&s.name) {
            s.path = a.path_text(new, n);
        }
    }
}
