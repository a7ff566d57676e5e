//! `mo-mem export` read back whole: every table of an export of three fixture snapshots is read
//! with the `parquet` crate's own reader and checked against each snapshot's analysis computed
//! here a second, simple way: row counts; every object's address, size, liveness, retained
//! figures and dominator against the graph and the dominators node by node (the export reads
//! addresses from its own table, this test from the graph's index); the sums of every integer
//! column; every edge in order; the Motoko type column grouped by name against the `types`
//! table; every row of `variables` and `types`.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;

use mo_mem::analysis::dominators::Dominator;
use mo_mem::analysis::OpenedHeap;
use parquet::file::reader::FileReader;
use parquet::file::serialized_reader::SerializedFileReader;
use parquet::record::Field;

/// Fixture snapshots of different sizes and collectors (the largest spans several pages).
const SNAPSHOTS: [&str; 3] = ["compound/eop", "collections/eop", "structures/compacting"];

/// Every row of `table`, each as its fields in the schema's order.
fn read(dir: &Path, table: &str) -> Vec<Vec<Field>> {
    let file = std::fs::File::open(dir.join(format!("{table}.parquet"))).unwrap();
    let reader = SerializedFileReader::new(file).unwrap();
    reader
        .get_row_iter(None)
        .unwrap()
        .map(|r| {
            r.unwrap()
                .get_column_iter()
                .map(|(_, f)| f.clone())
                .collect()
        })
        .collect()
}

fn text(f: &Field) -> &str {
    match f {
        Field::Str(s) => s,
        other => panic!("not a string: {other:?}"),
    }
}

fn long(f: &Field) -> i64 {
    match f {
        Field::Long(v) => *v,
        other => panic!("not a long: {other:?}"),
    }
}

fn opt_long(f: &Field) -> Option<i64> {
    match f {
        Field::Null => None,
        f => Some(long(f)),
    }
}

fn boolean(f: &Field) -> bool {
    match f {
        Field::Bool(b) => *b,
        other => panic!("not a boolean: {other:?}"),
    }
}

#[test]
fn every_table_reads_back_as_each_snapshots_analysis() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("export");
    crate::analysis_export::export_fixtures(&SNAPSHOTS, &out);

    let objects = read(&out, "objects");
    let edges = read(&out, "edges");
    let variables = read(&out, "variables");
    let types = read(&out, "types");
    let mut rows_seen = (0, 0, 0, 0);
    for s in SNAPSHOTS {
        let (name, mode) = s.split_once('/').unwrap();
        let opened = OpenedHeap::open(&common::fixture(name, mode)).unwrap();
        let a = opened.analysis().unwrap();
        let a = &*a;
        let (g, doms, labels) = (a.graph(), a.dominators(), a.labels(&opened));
        // The edges from the arrays of a graph built with them (the analysis reads its edges
        // from the image and keeps none): a second computation.
        let arrays = mo_mem::analysis::graph::HeapGraph::build(opened.heap()).expect("graph");

        // objects: one row per node, in node order, each field as the analysis has it.
        let mine: Vec<&Vec<Field>> = objects.iter().filter(|r| text(&r[0]) == s).collect();
        assert_eq!(mine.len(), g.nodes(), "{s}: object rows");
        assert!(g.nodes() > 0);
        let mut sums = [0i64; 5];
        let mut expected_sums = [0i64; 5];
        let mut by_type: BTreeMap<String, (i64, i64)> = BTreeMap::new();
        for (n, r) in mine.iter().enumerate() {
            let n = n as u32;
            let addr = g.address(n);
            assert_eq!(long(&r[1]), addr as i64, "{s}: address of node {n}");
            let tag = opened.heap().object(addr).map_or("?", |o| o.tag.name());
            assert_eq!(text(&r[2]), tag, "{s}: tag of {addr:#x}");
            let label = labels.label(n).map(|l| l.to_string());
            let ty = match &r[3] {
                Field::Null => None,
                f => Some(text(f).to_string()),
            };
            assert_eq!(ty, label, "{s}: type of {addr:#x}");
            assert_eq!(long(&r[4]), g.size(n) as i64, "{s}: size of {addr:#x}");
            assert_eq!(boolean(&r[5]), doms.is_reachable(n), "{s}: live {addr:#x}");
            let retained = doms.retained(n);
            assert_eq!(long(&r[6]), retained.objects as i64, "{s}: {addr:#x}");
            assert_eq!(long(&r[7]), retained.bytes as i64, "{s}: {addr:#x}");
            let dominator = match doms.idom(n) {
                Some(Dominator::Node(p)) => Some(g.address(p) as i64),
                _ => None,
            };
            assert_eq!(opt_long(&r[8]), dominator, "{s}: dominator of {addr:#x}");
            for (sum, v) in sums.iter_mut().zip([
                long(&r[1]),
                long(&r[4]),
                long(&r[6]),
                long(&r[7]),
                opt_long(&r[8]).unwrap_or(0),
            ]) {
                *sum += v;
            }
            if let (Some(ty), true) = (ty, boolean(&r[5])) {
                let e = by_type.entry(ty).or_default();
                e.0 += 1;
                e.1 += long(&r[4]);
            }
        }
        // The same sums computed from the analysis alone.
        for n in 0..g.nodes() as u32 {
            let retained = doms.retained(n);
            let dominator = match doms.idom(n) {
                Some(Dominator::Node(p)) => g.address(p),
                _ => 0,
            };
            for (sum, v) in expected_sums.iter_mut().zip([
                g.address(n),
                g.size(n),
                retained.objects,
                retained.bytes,
                dominator,
            ]) {
                *sum += v as i64;
            }
        }
        assert_eq!(sums, expected_sums, "{s}: column sums");
        assert_eq!(sums[1] as u64, g.total().bytes, "{s}: sum of sizes");

        // edges: every successor list in order.
        let mine: Vec<(i64, i64)> = edges
            .iter()
            .filter(|r| text(&r[0]) == s)
            .map(|r| (long(&r[1]), long(&r[2])))
            .collect();
        let mut expected = Vec::new();
        for n in 0..g.nodes() as u32 {
            for &m in arrays.edges().successors(n) {
                expected.push((g.address(n) as i64, g.address(m) as i64));
            }
        }
        assert_eq!(mine.len(), arrays.edges().edges(), "{s}: edge rows");
        assert_eq!(mine, expected, "{s}: edges");

        // variables: every field.
        let mine: Vec<_> = variables
            .iter()
            .filter(|r| text(&r[0]) == s)
            .map(|r| {
                (
                    text(&r[1]).to_string(),
                    opt_long(&r[2]),
                    [long(&r[3]), long(&r[4]), long(&r[5]), long(&r[6])],
                )
            })
            .collect();
        let expected: Vec<_> = a
            .vars()
            .iter()
            .map(|v| {
                (
                    v.name.clone(),
                    v.address.map(|x| x as i64),
                    [
                        v.reachable.objects as i64,
                        v.reachable.bytes as i64,
                        v.retained.objects as i64,
                        v.retained.bytes as i64,
                    ],
                )
            })
            .collect();
        assert!(!expected.is_empty(), "{s}: a fixture with variables");
        assert_eq!(mine, expected, "{s}: variables");

        // types: every field, and the typed rows are the live objects grouped by type.
        let mine: Vec<_> = types
            .iter()
            .filter(|r| text(&r[0]) == s)
            .map(|r| {
                (
                    text(&r[1]).to_string(),
                    boolean(&r[2]),
                    [long(&r[3]), long(&r[4]), long(&r[5]), long(&r[6])],
                )
            })
            .collect();
        let rows = a.types(&opened);
        let expected: Vec<_> = rows
            .iter()
            .map(|t| {
                (
                    t.name.clone(),
                    t.typed,
                    [
                        t.shallow.objects as i64,
                        t.shallow.bytes as i64,
                        t.retained.objects as i64,
                        t.retained.bytes as i64,
                    ],
                )
            })
            .collect();
        assert_eq!(mine, expected, "{s}: types");
        let typed: BTreeMap<String, (i64, i64)> = mine
            .iter()
            .filter(|(_, typed, _)| *typed)
            .map(|(name, _, v)| (name.clone(), (v[0], v[1])))
            .collect();
        assert!(!typed.is_empty(), "{s}: typed objects");
        assert_eq!(by_type, typed, "{s}: live objects by Motoko type");

        rows_seen.0 += g.nodes();
        rows_seen.1 += arrays.edges().edges();
        rows_seen.2 += a.vars().len();
        rows_seen.3 += rows.len();
    }
    assert_eq!(
        (objects.len(), edges.len(), variables.len(), types.len()),
        rows_seen,
        "no rows of another snapshot"
    );
}
