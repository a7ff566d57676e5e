//! Flame graphs of retained memory on every committed fixture: the folded stacks' weights add
//! up to the live bytes, and the weight under each stable variable's root frame to its
//! retained size, recomputed here by climbing each live object's dominator chain (a second,
//! simple computation); the frames stay bounded; the SVGs parse as XML, stay under 2 MB, and
//! `mo-mem retained --svg FILE` writes the library's picture.

use crate::common;

use mo_mem::analysis::dominators::Dominator;
use mo_mem::analysis::flame::fold::{MAX_DEPTH, SMALLER_FRAMES};
use mo_mem::analysis::flame::{
    diff_svg, retained_svg, FoldOptions, FoldedStacks, MAX_SVG_BYTES, RETAINED_TITLE,
};
use mo_mem::analysis::{HeapAnalysis, OpenedHeap};
use quick_xml::events::Event;

/// The bytes node `n`'s dominator subtree holds, by climbing every live node's idom chain.
fn subtree_bytes(a: &HeapAnalysis, n: u32) -> u64 {
    let (g, d) = (a.graph(), a.dominators());
    let mut bytes = 0;
    for m in 0..g.nodes() as u32 {
        if !d.is_reachable(m) {
            continue;
        }
        let mut v = m;
        loop {
            if v == n {
                bytes += g.size(m);
                break;
            }
            match d.idom(v) {
                Some(Dominator::Node(p)) => v = p,
                _ => break,
            }
        }
    }
    bytes
}

/// Parses `svg` as XML; the number of `<rect>` elements (the frames drawn, and the background).
fn parse_svg(svg: &[u8], what: &str) -> usize {
    assert!(svg.len() <= MAX_SVG_BYTES, "{what}: {} bytes", svg.len());
    let mut reader = quick_xml::Reader::from_reader(svg);
    let mut buf = Vec::new();
    let (mut depth, mut rects, mut root) = (0i64, 0, None);
    loop {
        match reader.read_event_into(&mut buf) {
            Ok(Event::Start(e)) => {
                root.get_or_insert_with(|| e.name().as_ref().to_vec());
                depth += 1;
            }
            Ok(Event::End(_)) => depth -= 1,
            Ok(Event::Empty(e)) if e.name().as_ref() == b"rect" => rects += 1,
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("{what}: not XML at {}: {e}", reader.buffer_position()),
        }
        buf.clear();
    }
    assert_eq!(depth, 0, "{what}: unbalanced elements");
    assert_eq!(root.as_deref(), Some(&b"svg"[..]), "{what}: root element");
    rects
}

#[test]
fn folded_stacks_add_up_to_the_retained_sizes() {
    for (name, mode, dir) in common::all_fixtures() {
        let what = format!("{name}/{mode}");
        let opened = OpenedHeap::open(&dir).unwrap_or_else(|e| panic!("{what}: {e}"));
        let a = opened.analysis().unwrap_or_else(|e| panic!("{what}: {e}"));
        let a = &*a;
        let stacks = FoldedStacks::compute(&opened, a, FoldOptions::default());
        assert_eq!(stacks.total(), a.live().bytes, "{what}: total");
        let mut checked = 0;
        for v in a.graph().vars() {
            let Some(n) = v.node else { continue };
            // A variable's object dominated by no other object starts its root frame.
            if !matches!(
                a.dominators().idom(n),
                Some(Dominator::Group(_) | Dominator::Root)
            ) {
                continue;
            }
            let sharing: Vec<String> = a
                .graph()
                .vars()
                .iter()
                .filter(|w| w.node == Some(n))
                .map(|w| format!("vars.{}", w.name))
                .collect();
            let root = sharing.join(" = ");
            let expected = subtree_bytes(a, n);
            assert_eq!(expected, a.dominators().retained(n).bytes, "{what} {root}");
            assert_eq!(stacks.total_under(&root), expected, "{what} {root}");
            checked += 1;
        }
        if a.graph().vars().iter().any(|v| v.node.is_some()) {
            assert!(checked > 0, "{what}: no variable checked");
        }
        for (s, w) in stacks.lines() {
            assert!(*w > 0, "{what}: {s}");
            assert!(
                s.split(';').count() <= MAX_DEPTH as usize + 1,
                "{what}: {s}"
            );
        }
        // Few frames: the same total, the rest merged.
        let small = FoldedStacks::compute(
            &opened,
            a,
            FoldOptions {
                max_frames: 3,
                counts: true,
            },
        );
        assert_eq!(small.total(), a.live().bytes, "{what}: total of 3 frames");
        assert!(small.frames() <= 2 * 3 + 1, "{what}: {:?}", small.lines());
        assert!(
            small.lines().len() <= 2 * 3 + 1,
            "{what}: {:?}",
            small.lines()
        );
        if stacks.frames() > 3 {
            assert!(
                small
                    .lines()
                    .iter()
                    .any(|(s, _)| s.ends_with(SMALLER_FRAMES)),
                "{what}: {:?}",
                small.lines()
            );
        }
    }
}

#[test]
fn an_array_of_records_is_one_frame_with_its_count() {
    let dir = common::fixture("compound", "eop");
    let opened = OpenedHeap::open(&dir).unwrap();
    let a = opened.analysis().unwrap();
    let a = &*a;
    let stacks = FoldedStacks::compute(&opened, a, FoldOptions::default());
    let text = stacks.text();
    // Some frame merges several sibling objects of one type (`... ×n`), and array elements
    // are named `[] Type`.
    assert!(text.contains(" ×"), "{text}");
    assert!(text.contains("[] "), "{text}");
    assert!(
        text.lines()
            .all(|l| l.starts_with("vars.") || l.starts_with('<') || l.starts_with('(')),
        "{text}"
    );
}

#[test]
fn svgs_parse_and_stay_small() {
    let mut largest = None;
    for (name, mode, dir) in common::all_fixtures() {
        let memory = common::committed_fixture(&name, &mode).join("wasm_memory.bin.gz");
        let size = std::fs::metadata(&memory).map_or(0, |m| m.len());
        if largest.as_ref().is_none_or(|(s, _, _)| size > *s) {
            largest = Some((size, format!("{name}/{mode}"), dir));
        }
    }
    let (_, what, dir) = largest.expect("fixtures");
    let opened = OpenedHeap::open(&dir).unwrap();
    let a = opened.analysis().unwrap();
    let a = &*a;
    let svg = retained_svg(&opened, a, RETAINED_TITLE).unwrap();
    let rects = parse_svg(&svg, &what);
    assert!(rects > 2, "{what}: {rects} frames");
    let text = String::from_utf8_lossy(&svg);
    assert!(text.contains(RETAINED_TITLE), "{what}");
    assert!(
        text.contains("<script"),
        "{what}: inferno's zoom and search"
    );

    let old = OpenedHeap::open(&common::fixture("compound", "eop")).unwrap();
    let new = OpenedHeap::open(&common::fixture("collections", "eop")).unwrap();
    let diff = diff_svg(&old, &new).unwrap();
    assert!(parse_svg(&diff, "diff") > 2);
    let same = diff_svg(&old, &old).unwrap();
    parse_svg(&same, "diff of one snapshot with itself");
}

#[test]
fn the_cli_writes_the_librarys_picture() {
    let dir = common::fixture("compound", "eop");
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("retained.svg");
    let path = dir.to_str().unwrap();
    common::mo_mem_ok(&["retained", path, "--svg", file.to_str().unwrap()]);
    let opened = OpenedHeap::open(&dir).unwrap();
    let a = opened.analysis().unwrap();
    let a = &*a;
    let expected = retained_svg(&opened, a, RETAINED_TITLE).unwrap();
    assert_eq!(std::fs::read(&file).unwrap(), expected);
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert_eq!(left.len(), 1, "no temporary file left");
}

#[test]
fn the_snapshot_readme_names_every_analysis_file() {
    use mo_mem::serve::analysis_dir::ANALYSIS_FILES;
    let readme =
        String::from_utf8(mo_mem::vfs::readme::snapshot_readme("snap", None, None)).unwrap();
    // the paragraph of `analysis/`: from its line to the next entry at the left margin
    let start = readme.find("analysis/").expect("analysis/ in the README");
    let end = readme[start..]
        .find("\neval ")
        .map_or(readme.len(), |e| start + e);
    let paragraph = &readme[start..end];
    for file in ANALYSIS_FILES {
        assert!(
            paragraph.contains(file),
            "README lacks analysis/{file}:\n{paragraph}"
        );
    }
}
