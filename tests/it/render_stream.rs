//! The streamed renderings (`heap::render::stream_json`, `stream_debug_show`), which read a
//! value from the heap as they write it, give exactly the bytes of the in-memory renderers
//! over `Decoder::deep` (the second, simple computation), for every stable variable of every
//! fixture: natural JSON, raw JSON and `debug_show`.

use crate::common;

use mo_mem::heap::render::{
    stream_debug_show, stream_json, write_debug_show_as, write_json, FloatStyle,
};
use mo_mem::heap::types::StableSignature;
use mo_mem::heap::value::{
    heap_signature, signature_decoder, stable_variables, LazyValue, NamedVar,
};
use mo_mem::heap::Heap;
use mo_mem::image::ReaderLimits;
use mo_mem::snapshot::Snapshot;

/// The heap of the snapshot at `dir`, its stable signature and its variables (`None` when any
/// of them cannot be read: such fixtures are checked elsewhere).
fn open_vars(dir: &std::path::Path) -> Option<(Heap, StableSignature, Vec<NamedVar>)> {
    let heap = Heap::open(Snapshot::open(dir).ok()?, ReaderLimits::default()).ok()?;
    let sig = heap_signature(&heap).ok()?;
    let vars = stable_variables(&heap, &sig).ok()?;
    Some((heap, sig, vars))
}

/// Which rendering is compared.
#[derive(Clone, Copy, Debug)]
enum Which {
    NaturalJson,
    RawJson,
    DebugShow,
}

/// The in-memory rendering: `deep`, then the writer (`None` when `deep` fails).
fn in_memory(
    heap: &Heap,
    sig: &mo_mem::heap::types::StableSignature,
    v: &LazyValue,
    which: Which,
) -> Option<String> {
    let mut d = signature_decoder(heap, sig);
    d.set_natural(matches!(which, Which::NaturalJson));
    let value = d.deep(v).ok()?;
    let mut out = String::new();
    match which {
        Which::DebugShow => write_debug_show_as(&value, FloatStyle::Compiled, &mut out),
        _ => write_json(&value, &mut out),
    }
    Some(out)
}

/// The streamed rendering (`None` when it fails).
fn streamed(
    heap: &Heap,
    sig: &mo_mem::heap::types::StableSignature,
    v: &LazyValue,
    which: Which,
) -> Option<String> {
    let mut d = signature_decoder(heap, sig);
    d.set_natural(matches!(which, Which::NaturalJson));
    let mut out = Vec::new();
    let done = match which {
        Which::DebugShow => stream_debug_show(&mut d, v, FloatStyle::Compiled, &mut out),
        _ => stream_json(&mut d, v, &mut out),
    };
    done.ok()?;
    Some(String::from_utf8(out).expect("renderings are UTF-8"))
}

#[test]
fn streamed_renderings_equal_the_in_memory_ones_on_every_fixture_variable() {
    let fixtures = common::all_fixtures();
    assert!(!fixtures.is_empty(), "no committed fixture snapshots");
    let (mut compared, mut bytes) = (0usize, 0usize);
    let mut failures = Vec::new();
    for (name, mode, dir) in &fixtures {
        let Some((heap, sig, vars)) = open_vars(dir) else {
            continue;
        };
        for var in &vars {
            for which in [Which::NaturalJson, Which::RawJson, Which::DebugShow] {
                let want = in_memory(&heap, &sig, &var.value, which);
                let got = streamed(&heap, &sig, &var.value, which);
                if want != got {
                    failures.push(format!(
                        "{name}/{mode} {} {which:?}:\n  in memory: {}\n  streamed:  {}",
                        var.name,
                        want.as_deref().map_or("<error>".into(), |t| t
                            .chars()
                            .take(300)
                            .collect::<String>()),
                        got.as_deref().map_or("<error>".into(), |t| t
                            .chars()
                            .take(300)
                            .collect::<String>()),
                    ));
                }
                compared += 1;
                bytes += want.map_or(0, |t| t.len());
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {compared} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(compared > 300, "only {compared} renderings compared");
    assert!(bytes > 100_000, "only {bytes} bytes compared");
}

/// A map's entries read as words (`EntryWalk::next_raw_entry`, what the streamed JSON uses)
/// against the same walk read item by item (`next_item`): the same entries in the same order
/// (tuple address, key word, value word), the same work spent, for every `mo:core` Map
/// variable of every fixture.
#[test]
fn raw_map_entries_are_the_items_of_the_walk() {
    use mo_mem::heap::collections::{recognize, CollectionKind, EntryWalk, Item, RawNext};
    use mo_mem::heap::value::Decoder;

    type Entries = Vec<(u64, u64, u64)>;
    /// The walk's entries and the work spent; `raw`: through `next_raw_entry` where it
    /// applies (and how many entries it gave).
    fn entries(d: &mut Decoder<'_>, mut walk: EntryWalk, raw: bool) -> (Entries, u64, usize) {
        let (mut out, mut by_raw) = (Vec::new(), 0);
        loop {
            if raw {
                if let Some(ty) = walk.queued_slot_type().cloned() {
                    match walk.next_raw_entry(d, &ty) {
                        Ok(RawNext::Entry(e)) => {
                            out.push((e.addr, e.key, e.value));
                            by_raw += 1;
                            continue;
                        }
                        Ok(RawNext::Other) => {}
                        Err(_) => break,
                    }
                }
            }
            match walk.next_item(d) {
                Some(Ok(Item::Entry { addr, key, value })) => {
                    out.push((addr, key.word, value.word))
                }
                Some(Ok(Item::Element(_))) => panic!("a map's walk gave an element"),
                Some(Err(_)) | None => break,
            }
        }
        (out, d.work_used(), by_raw)
    }

    let (mut maps, mut raw_total) = (0usize, 0usize);
    for (name, mode, dir) in &common::all_fixtures() {
        let Some((heap, sig, vars)) = open_vars(dir) else {
            continue;
        };
        for var in &vars {
            let Some(ty) = var.value.ty.as_ref() else {
                continue;
            };
            let Ok(ty) = sig.env.normalize(ty) else {
                continue;
            };
            if recognize(&sig.env, &ty) != Some(CollectionKind::Map) {
                continue;
            }
            let map = LazyValue::typed(var.value.word, ty);
            let by_item = entries(
                &mut signature_decoder(&heap, &sig),
                EntryWalk::new(map.clone(), CollectionKind::Map),
                false,
            );
            let by_raw = entries(
                &mut signature_decoder(&heap, &sig),
                EntryWalk::new(map, CollectionKind::Map),
                true,
            );
            assert_eq!(
                (&by_raw.0, by_raw.1),
                (&by_item.0, by_item.1),
                "{name}/{mode} {}",
                var.name
            );
            maps += 1;
            raw_total += by_raw.2;
        }
    }
    assert!(maps >= 4, "only {maps} maps compared");
    assert!(raw_total > 50, "only {raw_total} entries read as words");
}
