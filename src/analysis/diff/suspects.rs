//! Growth suspects: the variables and types whose retained bytes grew most, each with a
//! path in the new snapshot (a variable's own, a type's largest retainer's).

use std::collections::HashMap;

use serde::Serialize;

use crate::analysis::OpenedHeap;

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
    let mut out: Vec<Suspect> = Vec::new();
    for v in vars {
        if v.retained_delta() > 0 {
            out.push(Suspect {
                kind: "var",
                name: v.name.clone(),
                old_bytes: v.old.as_ref().map_or(0, |x| x.retained.bytes),
                new_bytes: v.new.as_ref().map_or(0, |x| x.retained.bytes),
                grew_bytes: v.retained_delta() as u64,
                path: Some(format!("vars.{}", v.name)),
            });
        }
    }
    for t in types {
        if t.retained_delta() > 0 && t.typed {
            out.push(Suspect {
                kind: "type",
                name: t.name.clone(),
                old_bytes: t.old.as_ref().map_or(0, |x| x.retained.bytes),
                new_bytes: t.new.as_ref().map_or(0, |x| x.retained.bytes),
                grew_bytes: t.retained_delta() as u64,
                path: None,
            });
        }
    }
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
