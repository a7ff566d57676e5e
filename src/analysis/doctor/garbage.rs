//! `garbage`: unreachable objects the incremental GC has not collected yet, and stale
//! copies its evacuation left behind. Saving: their bytes (the GC frees them; no code change
//! is needed, but a heap measured now counts them).

use std::collections::BTreeMap;

use super::context::Context;
use super::Finding;
use crate::heap::Object;

/// The check's state: unreachable objects and bytes per tag.
#[derive(Default)]
pub struct Garbage {
    by_tag: BTreeMap<&'static str, (u64, u64)>,
}

impl Garbage {
    /// Looks at unreachable node `n`.
    pub fn visit(&mut self, ctx: &Context<'_>, n: u32, obj: &Object<'_>) {
        let e = self.by_tag.entry(obj.tag.name()).or_default();
        e.0 += 1;
        e.1 += ctx.graph().size(n);
    }

    /// The finding, if there is garbage.
    pub fn finish(self, ctx: &Context<'_>) -> Option<Finding> {
        let (garbage, stale) = (ctx.a.garbage(), ctx.graph().stale());
        let objects = garbage.objects + stale.objects;
        let bytes = garbage.bytes + stale.bytes;
        if objects == 0 {
            return None;
        }
        let mut f = Finding::new("garbage", objects, bytes, bytes);
        let mut tags: Vec<(&str, (u64, u64))> = self.by_tag.into_iter().collect();
        tags.sort_by(|x, y| (y.1 .1, x.0).cmp(&(x.1 .1, y.0)));
        let top: Vec<String> = tags
            .iter()
            .take(3)
            .map(|(t, (o, b))| format!("{o} {t} ({b} bytes)"))
            .collect();
        f.detail = format!(
            "{} unreachable objects ({} bytes; most: {}) and {} stale copies ({} bytes)",
            garbage.objects,
            garbage.bytes,
            match top.is_empty() {
                true => "-".to_string(),
                false => top.join(", "),
            },
            stale.objects,
            stale.bytes
        );
        f.advice = "Nothing to change in the code: the incremental GC reclaims these as \
                    messages run (a snapshot taken after more messages shows less)."
            .to_string();
        Some(f)
    }
}
