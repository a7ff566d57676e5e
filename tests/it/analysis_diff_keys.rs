//! The collection comparison of the diff (fingerprints of keys and values, a merge of both
//! sides sorted by key fingerprint) against a second, simple computation: every key and value
//! decoded and printed with `debug_show`, the old side's keys in a map from text to text,
//! the new side's looked up one by one. On every pair of fixture snapshots where a
//! comparison means something: the growth stages both ways, and each fixture's EOP snapshot
//! against its copying one (the same canister, the same values).

use crate::common;

use std::collections::HashMap;

use mo_mem::analysis::diff::collections::{compare_collections, CollectionLimits, KeyChanges};
use mo_mem::analysis::diff::entries::{entries, Key};
use mo_mem::analysis::diff::values::{compare, compare_on_two_threads, ValueChange};
use mo_mem::analysis::OpenedHeap;
use mo_mem::heap::render::debug_show;
use mo_mem::heap::value::{stable_variables, Decoder, LazyValue};

pub(crate) fn open(name: &str, mode: &str) -> OpenedHeap {
    OpenedHeap::open(&common::fixture(name, mode)).unwrap_or_else(|e| panic!("{name}/{mode}: {e}"))
}

/// The stable variables of `o` by name.
pub(crate) fn values(o: &OpenedHeap) -> Vec<(String, LazyValue)> {
    stable_variables(o.heap(), o.signature().expect("signature"))
        .expect("variables")
        .into_iter()
        .map(|v| (v.name.to_string(), v.value))
        .collect()
}

/// A collection's entries as `debug_show` texts in order (`None`: not a collection).
pub(crate) fn texts(dec: &mut Decoder<'_>, v: &LazyValue) -> Option<Vec<(String, String)>> {
    let mut es = entries(dec, v).expect("entries")?;
    let mut out = Vec::new();
    while let Some(e) = es.next().expect("entry") {
        let dec = es.decoder();
        let key = match e.key {
            Key::Index(i) => i.to_string(),
            Key::Value(k) => debug_show(&dec.deep(&k).expect("key")),
        };
        let value = match e.value {
            Some(v) => debug_show(&dec.deep(&v).expect("value")),
            None => String::new(),
        };
        out.push((key, value));
    }
    Some(out)
}

/// Whether a `debug_show` text shows an address (a cycle, an opaque or undecoded part),
/// which differs between two snapshots of one value.
fn by_address(text: &str) -> bool {
    text.contains("<cycle 0x") || text.contains("<not decoded 0x") || text.contains(" 0x")
}

/// The key changes by text: the old side's keys in a map to their values (a key met several
/// times, an element of a queue or a list, keeps each occurrence in order), the new side's
/// looked up one by one, each taking the old side's first unmatched occurrence.
pub(crate) fn by_text(old: &[(String, String)], new: &[(String, String)]) -> KeyChanges {
    let mut index: HashMap<&str, std::collections::VecDeque<(usize, &str)>> = HashMap::new();
    for (i, (k, v)) in old.iter().enumerate() {
        index
            .entry(k.as_str())
            .or_default()
            .push_back((i, v.as_str()));
    }
    let mut out = KeyChanges::default();
    for (k, v) in new {
        match index.get_mut(k.as_str()).and_then(|q| q.pop_front()) {
            None => {
                out.added += 1;
                out.first_added.get_or_insert_with(|| k.clone());
            }
            Some((_, old_v)) => {
                if old_v != v {
                    out.changed += 1;
                    out.first_changed.get_or_insert_with(|| k.clone());
                }
            }
        }
    }
    let mut removed: Vec<(usize, &str)> = index
        .into_iter()
        .flat_map(|(k, q)| q.into_iter().map(move |(i, _)| (i, k)))
        .collect();
    removed.sort_unstable();
    out.removed = removed.len() as u64;
    out.first_removed = removed.first().map(|(_, k)| k.to_string());
    out
}

/// Checks every variable of both snapshots against the text comparison; returns how many
/// collections were compared.
pub(crate) fn check_pair(a: &OpenedHeap, b: &OpenedHeap, what: &str) -> usize {
    let (olds, news) = (values(a), values(b));
    let mut compared = 0;
    for (name, old) in &olds {
        let Some((_, new)) = news.iter().find(|(n, _)| n == name) else {
            continue;
        };
        let (mut da, mut db) = (a.any_decoder(), b.any_decoder());
        let old_text = debug_show(&da.deep(old).expect("old value"));
        let new_text = debug_show(&db.deep(new).expect("new value"));
        let change = compare(&mut da, old.clone(), &mut db, new.clone(), 1 << 24);
        // the pipelined comparison (`mo-mem upgrade`'s) answers the same, path and all, also
        // when a budget stops it inside the first batch or after several
        for budget in [1 << 24, 10_000, 7, 1] {
            let (mut x, mut y) = (a.any_decoder(), b.any_decoder());
            let want = compare(&mut x, old.clone(), &mut y, new.clone(), budget);
            let (mut x, mut y) = (a.any_decoder(), b.any_decoder());
            let got = compare_on_two_threads(&mut x, old.clone(), &mut y, new.clone(), budget);
            assert_eq!(got, want, "{what} {name}: budget {budget}");
        }
        if by_address(&old_text) || by_address(&new_text) {
            // a cycle or an opaque part prints its address: texts cannot be compared
            continue;
        }
        assert_eq!(
            change.changed(),
            Some(old_text != new_text),
            "{what} {name}: {change:?}"
        );
        let Some(old_entries) = texts(&mut a.any_decoder(), old) else {
            continue;
        };
        let Some(new_entries) = texts(&mut b.any_decoder(), new) else {
            continue;
        };
        let Some(diff) = compare_collections(
            &mut a.any_decoder(),
            old,
            &mut b.any_decoder(),
            new,
            CollectionLimits::default(),
        ) else {
            continue;
        };
        let diff = diff.unwrap_or_else(|e| panic!("{what} {name}: {e}"));
        assert_eq!(
            (diff.old_entries, diff.new_entries),
            (old_entries.len() as u64, new_entries.len() as u64),
            "{what} {name}"
        );
        assert_eq!(
            diff.keys,
            by_text(&old_entries, &new_entries),
            "{what} {name}"
        );
        if change == ValueChange::Same {
            assert_eq!(diff.keys, KeyChanges::default(), "{what} {name}");
        }
        compared += 1;
    }
    compared
}

#[test]
fn key_changes_agree_with_a_comparison_of_texts_on_every_growth_pair() {
    for mode in ["eop", "copying"] {
        let stages: Vec<OpenedHeap> = (1..=3).map(|n| open(&format!("growth{n}"), mode)).collect();
        for (i, a) in stages.iter().enumerate() {
            for (j, b) in stages.iter().enumerate() {
                let what = format!("growth{} -> growth{} {mode}", i + 1, j + 1);
                // log, cache and users in every pair
                assert_eq!(check_pair(a, b, &what), 3, "{what}");
            }
        }
    }
}

#[test]
fn key_changes_agree_with_a_comparison_of_texts_across_persistence_modes() {
    let mut compared = 0;
    for (name, a, b) in [
        ("collections", "eop", "copying"),
        ("collections", "eop", "incremental"),
        ("compound", "eop", "copying"),
        ("compound", "eop", "eop-forcegc"),
        ("structures", "eop", "copying"),
        ("scalars", "eop", "copying"),
        ("regions", "eop", "copying"),
        ("weak", "eop", "eop-forcegc"),
        ("growth1", "eop", "copying"),
        ("growth3", "eop", "copying"),
    ] {
        let (x, y) = (open(name, a), open(name, b));
        compared += check_pair(&x, &y, &format!("{name} {a} -> {b}"));
        compared += check_pair(&y, &x, &format!("{name} {b} -> {a}"));
    }
    assert!(compared >= 20, "{compared} collections compared");
}
