//! `mo-mem export` of two fixture snapshots of one canister (before and after a forced GC),
//! read back with the `parquet` crate's row reader and checked against each snapshot's own
//! analysis: rows per table, the sum of object sizes equals the walk's bytes, the live ones
//! the live bytes, each variable's reachable and retained figures, the per-type rows. Then
//! the DuckDB query shown in docs/analysis.md runs over the export and prints what the
//! document shows (where DuckDB's Python package is installed: `scripts/test` makes a venv
//! in `target/duckdb-venv`; elsewhere the test says it skipped, and fails under
//! `MO_MEM_STRICT=1`).

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use mo_mem::analysis::OpenedHeap;
use parquet::file::reader::FileReader;
use parquet::file::serialized_reader::SerializedFileReader;
use parquet::record::{Field, Row, RowAccessor};

/// The snapshots the document exports, as named under the materialized fixtures' root.
const SNAPSHOTS: [&str; 2] = ["compound/eop", "compound/eop-forcegc"];

fn rows(dir: &Path, table: &str) -> Vec<Row> {
    let file = std::fs::File::open(dir.join(format!("{table}.parquet"))).unwrap();
    let reader = SerializedFileReader::new(file).unwrap();
    reader
        .get_row_iter(None)
        .unwrap()
        .map(|r| r.unwrap())
        .collect()
}

/// Exports [`SNAPSHOTS`] into `out` (run from the fixtures' root so the rows name them as
/// the document does).
fn export(out: &Path) -> String {
    export_fixtures(&SNAPSHOTS, out)
}

/// Exports the fixture snapshots `snapshots` (`NAME/MODE`, materialized first) into `out`,
/// from the fixtures' root so the rows name them as given; what `mo-mem` printed.
pub fn export_fixtures(snapshots: &[&str], out: &Path) -> String {
    for s in snapshots {
        let (name, mode) = s.split_once('/').unwrap();
        common::fixture(name, mode);
    }
    let mut args = vec!["export".to_string()];
    args.extend(snapshots.iter().map(|s| s.to_string()));
    args.extend(["--out".to_string(), out.to_string_lossy().into_owned()]);
    let o = Command::new(env!("CARGO_BIN_EXE_mo-mem"))
        .args(&args)
        .current_dir(common::materialized_root())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn the_export_holds_each_snapshots_analysis() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("export");
    let printed = export(&out);
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "edges.parquet",
            "objects.parquet",
            "types.parquet",
            "variables.parquet"
        ],
        "no temporary file left"
    );
    let objects = rows(&out, "objects");
    let edges = rows(&out, "edges");
    let variables = rows(&out, "variables");
    let types = rows(&out, "types");
    let mut total = (0, 0, 0, 0);
    for s in SNAPSHOTS {
        let (name, mode) = s.split_once('/').unwrap();
        let opened = OpenedHeap::open(&common::fixture(name, mode)).unwrap();
        let a = opened.analysis().unwrap();
        let a = &*a;
        let g = a.graph();
        // The edges from the arrays of a graph built with them (the analysis reads its edges
        // from the image and keeps none): a second computation.
        let arrays = mo_mem::analysis::graph::HeapGraph::build(opened.heap()).expect("graph");
        let mine: Vec<&Row> = objects
            .iter()
            .filter(|r| r.get_string(0).unwrap() == s)
            .collect();
        assert_eq!(mine.len(), g.nodes(), "{s}: object rows");
        let bytes: i64 = mine.iter().map(|r| r.get_long(4).unwrap()).sum();
        assert_eq!(
            bytes as u64,
            g.total().bytes,
            "{s}: sum of sizes = walk bytes"
        );
        let live: i64 = mine
            .iter()
            .filter(|r| r.get_bool(5).unwrap())
            .map(|r| r.get_long(4).unwrap())
            .sum();
        assert_eq!(live as u64, a.live().bytes, "{s}: live bytes");
        // Each object's tag as the object decoder reads it (the export reads one word).
        for r in &mine {
            let addr = r.get_long(1).unwrap() as u64;
            let tag = opened.heap().object(addr).map_or("?", |o| o.tag.name());
            assert_eq!(r.get_string(2).unwrap(), tag, "{s}: tag of {addr:#x}");
        }
        // Objects under no other object: their retained bytes add up to the live bytes.
        let tops: i64 = mine
            .iter()
            .filter(|r| r.get_bool(5).unwrap())
            .filter(|r| matches!(r.get_column_iter().nth(8), Some((_, Field::Null))))
            .map(|r| r.get_long(7).unwrap())
            .sum();
        assert_eq!(tops as u64, a.live().bytes, "{s}: retained under the roots");
        let my_edges = edges
            .iter()
            .filter(|r| r.get_string(0).unwrap() == s)
            .count();
        assert_eq!(my_edges, arrays.edges().edges(), "{s}: edge rows");
        let vars: BTreeMap<String, (i64, i64)> = variables
            .iter()
            .filter(|r| r.get_string(0).unwrap() == s)
            .map(|r| {
                (
                    r.get_string(1).unwrap().clone(),
                    (r.get_long(4).unwrap(), r.get_long(6).unwrap()),
                )
            })
            .collect();
        let expected: BTreeMap<String, (i64, i64)> = a
            .vars()
            .iter()
            .map(|v| {
                (
                    v.name.clone(),
                    (v.reachable.bytes as i64, v.retained.bytes as i64),
                )
            })
            .collect();
        assert_eq!(vars, expected, "{s}: variables");
        let my_types = types
            .iter()
            .filter(|r| r.get_string(0).unwrap() == s)
            .count();
        assert_eq!(my_types, a.types(&opened).len(), "{s}: type rows");
        total.0 += g.nodes();
        total.1 += arrays.edges().edges();
        total.2 += a.vars().len();
        total.3 += a.types(&opened).len();
    }
    assert_eq!(objects.len(), total.0);
    assert_eq!(
        printed,
        format!(
            "{}: {} objects, {} edges, {} variables, {} type rows from 2 snapshots\n",
            out.display(),
            total.0,
            total.1,
            total.2,
            total.3
        )
    );
}

/// The Python that has DuckDB: `MO_MEM_DUCKDB_PYTHON`, else `target/duckdb-venv`.
fn duckdb_python() -> Option<PathBuf> {
    let python = std::env::var_os("MO_MEM_DUCKDB_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::repo_root().join("target/duckdb-venv/bin/python3"));
    let ok = Command::new(&python)
        .args(["-c", "import duckdb"])
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then_some(python)
}

/// The ```` ```sql ```` blocks of `md`, each with the ```` ```text ```` block after it.
fn sql_examples(md: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut block: Option<(&str, String)> = None;
    for line in md.lines() {
        match (&mut block, line) {
            (None, "```sql") => block = Some(("sql", String::new())),
            (None, "```text") if out.last().is_some_and(|(_, t)| t.is_empty()) => {
                block = Some(("text", String::new()))
            }
            (Some((kind, text)), "```") => {
                match *kind {
                    "sql" => out.push((std::mem::take(text), String::new())),
                    _ => {
                        if let Some(last) = out.last_mut() {
                            last.1 = std::mem::take(text);
                        }
                    }
                }
                block = None;
            }
            (Some((_, text)), l) => {
                text.push_str(l);
                text.push('\n');
            }
            _ => {}
        }
    }
    out
}

/// Prints a query's columns and rows, ` | ` between values.
const RUN_SQL: &str = r#"
import sys, duckdb
r = duckdb.sql(sys.stdin.read())
print(" | ".join(r.columns))
for row in r.fetchall():
    print(" | ".join(str(v) for v in row))
"#;

#[test]
fn the_documented_duckdb_queries_print_what_the_document_shows() {
    let Some(python) = duckdb_python() else {
        common::skip::skipped(
            "DuckDB's Python package is not installed (scripts/test installs it into \
             target/duckdb-venv; or set MO_MEM_DUCKDB_PYTHON)",
        );
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    export(&tmp.path().join("export"));
    let doc = std::fs::read_to_string(common::repo_root().join("docs/analysis.md")).unwrap();
    let examples = sql_examples(&doc);
    assert!(
        !examples.is_empty(),
        "docs/analysis.md has no ```sql example"
    );
    for (sql, expected) in examples {
        let mut child = Command::new(&python)
            .args(["-c", RUN_SQL])
            .current_dir(tmp.path())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(sql.as_bytes())
            .unwrap();
        let o = child.wait_with_output().unwrap();
        assert!(
            o.status.success(),
            "{sql}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&o.stdout), expected, "{sql}");
    }
}
