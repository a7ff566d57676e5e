//! `garbage`: unreachable objects the incremental GC has not collected yet, and stale
//! copies its evacuation left behind. Saving: their bytes (the GC frees them; no code change
//! is needed, but a heap measured now counts them).

use std::collections::BTreeMap;

use super::context::Context;
use super::Finding;
use crate::heap::Tag;

/// The check's state: unreachable objects and bytes per tag (a short list: a heap has a few
/// dozen tags, and consecutive objects often share one).
#[derive(Default)]
pub struct Garbage {
    by_tag: Vec<(Tag, u64, u64)>,
    /// The index in `by_tag` of the last tag seen.
    last: usize,
}

impl Garbage {
    /// Looks at unreachable node `n`, of tag `tag`.
    pub fn visit(&mut self, ctx: &Context<'_>, n: u32, tag: Tag) {
        let i = match self.by_tag.get(self.last) {
            Some(e) if e.0 == tag => self.last,
            _ => match self.by_tag.iter().position(|e| e.0 == tag) {
                Some(i) => i,
                None => {
                    self.by_tag.push((tag, 0, 0));
                    self.by_tag.len() - 1
                }
            },
        };
        self.last = i;
        let e = &mut self.by_tag[i];
        e.1 += 1;
        e.2 += ctx.graph().size(n);
    }

    /// Adds the state of the pass over the nodes after this one's.
    pub fn merge(&mut self, part: Self) {
        for (tag, objects, bytes) in part.by_tag {
            match self.by_tag.iter_mut().find(|e| e.0 == tag) {
                Some(e) => {
                    e.1 += objects;
                    e.2 += bytes;
                }
                None => self.by_tag.push((tag, objects, bytes)),
            }
        }
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
        let mut by_name: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
        for (tag, objects, bytes) in self.by_tag {
            let e = by_name.entry(tag.name()).or_default();
            e.0 += objects;
            e.1 += bytes;
        }
        let mut tags: Vec<(&str, (u64, u64))> = by_name.into_iter().collect();
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
