//! The diff's collection comparison on every collection kind, between two snapshots of one
//! canister (`structures0`, an earlier stage of `structures`: two fewer calls): each side's
//! entries as the diff reads them are the canister's own iteration (its `NAME.entries`
//! views, byte for byte), the key changes equal those of a comparison of texts (a second,
//! simple computation: every entry printed, matched through a map from text to text), and
//! each collection is named and matched as its type says.

use crate::analysis_diff_keys::{by_text, check_pair, open, texts, values};
use crate::collections_natural::expected_views;
use crate::common;

use mo_mem::analysis::diff::collections::{compare_collections, CollectionLimits};
use mo_mem::analysis::diff::entries::{entries, Kind};
use mo_mem::analysis::progress::NoProgress;
use mo_mem::analysis::OpenedHeap;

/// Every top-level collection of `structures`: its name in the diff and how it is matched.
const COLLECTIONS: &[(&str, &str, Kind)] = &[
    ("map_principal_user", "Map", Kind::Map),
    ("map_pair_text", "Map", Kind::Map),
    ("set_text", "Set", Kind::Set),
    ("list_point", "List", Kind::Array),
    ("queue_user", "Queue", Kind::Set),
    ("stack_point", "Stack", Kind::Set),
    ("pq_pair", "PriorityQueue", Kind::Set),
    ("pure_map", "pure/Map", Kind::Map),
    ("pure_set", "pure/Set", Kind::Set),
    ("pure_list", "pure/List", Kind::Set),
    ("pure_queue", "pure/Queue", Kind::Set),
    ("rt_queue", "pure/RealTimeQueue", Kind::Set),
    ("trie_text_user", "Trie", Kind::Map),
    ("trie_principal_point", "Trie", Kind::Map),
    ("rbtree_text_nat", "RBTree", Kind::Map),
    ("base_list", "pure/List", Kind::Set),
    ("assoc_text_point", "pure/List", Kind::Set),
    ("users", "Array", Kind::Array),
];

/// The `debug_show` of the array of a collection's entries, from each entry's texts: a map's
/// `(key, value)` pairs, an indexed collection's values, a set's or sequence's elements.
fn entries_text(kind: Kind, entries: &[(String, String)]) -> String {
    let items: Vec<String> = entries
        .iter()
        .map(|(k, v)| match kind {
            Kind::Map => format!("({k}, {v})"),
            Kind::Array => v.clone(),
            Kind::Set => k.clone(),
        })
        .collect();
    format!("[{}]", items.join(", "))
}

/// Checks that the diff reads each collection of `o` (the snapshot `name`/`mode`) as the
/// canister iterates it; returns how many views were compared.
fn check_views(o: &OpenedHeap, name: &str, mode: &str) -> usize {
    let views = expected_views(&common::committed_fixture(name, mode));
    let mut checked = 0;
    for (var, v) in values(o) {
        let Some(view) = views.get(&format!("{var}.entries")) else {
            continue;
        };
        let mut dec = o.any_decoder();
        let kind = entries(&mut dec, &v)
            .expect("entries")
            .unwrap_or_else(|| panic!("{name}/{mode} {var}: not a collection"))
            .kind();
        let got = texts(&mut o.any_decoder(), &v).expect("a collection");
        assert_eq!(&entries_text(kind, &got), view, "{name}/{mode} {var}");
        checked += 1;
    }
    checked
}

#[test]
fn every_collection_kind_is_compared_as_the_canister_iterates_it() {
    for mode in ["eop", "copying"] {
        let (a, b) = (open("structures0", mode), open("structures", mode));
        // the views of every top-level collection but the array (which has none)
        assert_eq!(check_views(&a, "structures0", mode), COLLECTIONS.len() - 1);
        assert_eq!(check_views(&b, "structures", mode), COLLECTIONS.len() - 1);
        let (olds, news) = (values(&a), values(&b));
        let mut added_and_removed = 0;
        for &(var, collection, kind) in COLLECTIONS {
            let what = format!("{mode} {var}");
            let old = &olds.iter().find(|(n, _)| n == var).expect("old var").1;
            let new = &news.iter().find(|(n, _)| n == var).expect("new var").1;
            let diff = compare_collections(
                &mut a.any_decoder(),
                old,
                &mut b.any_decoder(),
                new,
                CollectionLimits::default(),
            )
            .unwrap_or_else(|| panic!("{what}: not compared"))
            .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!((diff.collection, diff.kind), (collection, kind), "{what}");
            let old_texts = texts(&mut a.any_decoder(), old).expect("old entries");
            let new_texts = texts(&mut b.any_decoder(), new).expect("new entries");
            assert_eq!(
                (diff.old_entries, diff.new_entries),
                (old_texts.len() as u64, new_texts.len() as u64),
                "{what}"
            );
            assert_eq!(diff.keys, by_text(&old_texts, &new_texts), "{what}");
            assert!(
                diff.keys.added > 0,
                "{what}: every collection gained entries"
            );
            if diff.keys.removed > 0 {
                added_and_removed += 1;
            }
        }
        assert!(added_and_removed >= 8, "{mode}: {added_and_removed}");
        // and every variable, both ways, as the growth pairs are
        assert!(check_pair(&a, &b, &format!("structures0 -> structures {mode}")) >= 17);
        assert!(check_pair(&b, &a, &format!("structures -> structures0 {mode}")) >= 17);
    }
}

/// A record holding collections (`nested = {title; index : Map; history : pure List}`): the
/// diff compares the collections inside it that changed, found by its type, as if each were
/// a variable; one that did not change (`history`) is not listed.
#[test]
fn collections_inside_a_record_are_compared_by_path() {
    for mode in ["eop", "copying"] {
        let (a, b) = (open("structures0", mode), open("structures", mode));
        let d = mo_mem::analysis::diff::SnapshotDiff::compute(&a, &b, &NoProgress).expect("diff");
        let nested = d.vars.iter().find(|v| v.name == "nested").expect("nested");
        assert!(
            nested.collection.is_none(),
            "{mode}: a record, not a collection"
        );
        let paths: Vec<&str> = nested.inner.iter().map(|c| c.path.as_str()).collect();
        assert_eq!(paths, [".index"], "{mode}");
        let diff = nested.inner[0].diff.as_ref().expect("compared");
        assert_eq!((diff.collection, diff.kind), ("Map", Kind::Map), "{mode}");
        let index = |o: &OpenedHeap| {
            let v = values(o)
                .into_iter()
                .find(|(n, _)| n == "nested")
                .expect("nested")
                .1;
            let mut dec = o.any_decoder();
            let index = dec.field(&v, "index").expect("index");
            texts(&mut dec, &index).expect("a Map")
        };
        let (old, new) = (index(&a), index(&b));
        assert_eq!(
            (diff.old_entries, diff.new_entries),
            (old.len() as u64, new.len() as u64)
        );
        assert_eq!(diff.keys, by_text(&old, &new), "{mode}");
        assert!(
            diff.keys.added > 0 && diff.keys.removed > 0,
            "{mode}: {diff:?}"
        );
        // the text and the JSON say it
        let text = mo_mem::analysis::diff::summary::summary_text(&d);
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with("nested "))
            .expect("line");
        assert!(
            line.contains(&format!(
                "; .index: Map {} -> {} entries",
                old.len(),
                new.len()
            )),
            "{line}"
        );
    }
}
