//! `weak-and-dedup` (EOP only): weak references whose target the GC has cleared (dead
//! entries: the `WeakRef` object stays, its target is the null sentinel). Saving: their
//! bytes. The RTS's weak-reference registry is the null sentinel outside a GC's marking
//! phase (its leftovers are counted as free space by the walk), and the `Blob` dedup table's
//! layout (a Motoko-side hash table) is not verified, so mo-mem does not read its entries:
//! that part is reported as skipped, with the reason.

use super::context::Context;
use super::{Finding, Skipped};
use crate::analysis::report::plural;
use crate::heap::{Body, Object, EOP_NULL};

/// The check's state: the dead weak references.
#[derive(Default)]
pub struct WeakAndDedup {
    dead: Vec<u32>,
    bytes: u64,
    live: u64,
}

impl WeakAndDedup {
    /// Looks at live node `n`.
    pub fn visit(&mut self, ctx: &Context<'_>, n: u32, obj: &Object<'_>) {
        if let Body::WeakRef { target } = obj.body {
            match target == EOP_NULL {
                true => {
                    self.dead.push(n);
                    self.bytes += ctx.graph().size(n);
                }
                false => self.live += 1,
            }
        }
    }

    /// Adds the state of the pass over the nodes after this one's.
    pub fn merge(&mut self, part: Self) {
        self.dead.extend(part.dead);
        self.bytes += part.bytes;
        self.live += part.live;
    }

    /// The finding, if any weak reference is dead, and the parts skipped.
    pub fn finish(self, ctx: &Context<'_>) -> (Option<Finding>, Vec<Skipped>) {
        if !ctx.eop() {
            let skipped = Skipped {
                check: "weak-and-dedup".to_string(),
                reason: "classical persistence has no weak references and no dedup table"
                    .to_string(),
            };
            return (None, vec![skipped]);
        }
        let skipped = vec![Skipped {
            check: "weak-and-dedup: dedup table".to_string(),
            reason: "the Blob dedup table's layout (a Motoko-side hash table) is not \
                     verified, so its entries are not read"
                .to_string(),
        }];
        if self.dead.is_empty() {
            return (None, skipped);
        }
        let n = self.dead.len() as u64;
        let mut f = Finding::new("weak-and-dedup", n, self.bytes, self.bytes);
        f.detail = format!(
            "{} point to nothing (the target was collected), {} to a live object",
            plural(n, "weak reference"),
            self.live
        );
        f.advice = "Drop a weak reference once WeakReference.isLive says its target is \
                    gone (replace it by null or remove its entry)."
            .to_string();
        f.nodes = self.dead.into();
        (Some(f), skipped)
    }
}
