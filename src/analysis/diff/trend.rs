//! The trend of many snapshots of one canister: per stable variable and per type, retained
//! bytes in each snapshot, in order; as a table (`mo-mem trend`), JSON (`--json`) and a line
//! chart ([`trend_svg`](super::trend_svg)).

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Serialize;

use super::figures::Figures;

/// How many types a trend follows by default (the largest in any snapshot).
pub const DEFAULT_TREND_TYPES: usize = 10;

/// One line of a trend: a name and its retained bytes in each snapshot (`None`: absent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Series {
    /// The variable's or type's name.
    pub name: String,
    /// Retained bytes per snapshot, in the trend's order.
    pub retained_bytes: Vec<Option<u64>>,
}

impl Series {
    /// The largest value of the series.
    pub fn max(&self) -> u64 {
        self.retained_bytes
            .iter()
            .flatten()
            .copied()
            .max()
            .unwrap_or(0)
    }
}

/// Retained bytes over time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Trend {
    /// The snapshots' names, in order.
    pub snapshots: Vec<String>,
    /// Live bytes of each snapshot.
    pub live_bytes: Vec<u64>,
    /// Each variable of any snapshot, in name order.
    pub vars: Vec<Series>,
    /// The types largest in any snapshot (at most the limit given), largest first.
    pub types: Vec<Series>,
}

/// `rows`' named values as series over `n` snapshots, in name order.
fn series<'a>(n: usize, rows: impl Iterator<Item = (usize, &'a str, u64)>) -> Vec<Series> {
    let mut by: BTreeMap<&str, Vec<Option<u64>>> = BTreeMap::new();
    for (i, name, bytes) in rows {
        by.entry(name).or_insert_with(|| vec![None; n])[i] = Some(bytes);
    }
    by.into_iter()
        .map(|(name, retained_bytes)| Series {
            name: name.to_string(),
            retained_bytes,
        })
        .collect()
}

impl Trend {
    /// The trend of `points` (name and figures of each snapshot, in order), following the
    /// `max_types` types largest in any snapshot.
    pub fn new(points: &[(String, Figures)], max_types: usize) -> Trend {
        let n = points.len();
        let vars = series(
            n,
            points.iter().enumerate().flat_map(|(i, (_, f))| {
                f.vars
                    .iter()
                    .map(move |v| (i, v.name.as_str(), v.retained.bytes))
            }),
        );
        let mut types = series(
            n,
            points.iter().enumerate().flat_map(|(i, (_, f))| {
                f.types
                    .iter()
                    .map(move |t| (i, t.name.as_str(), t.retained.bytes))
            }),
        );
        types.sort_by(|a, b| b.max().cmp(&a.max()).then_with(|| a.name.cmp(&b.name)));
        types.truncate(max_types);
        Trend {
            snapshots: points.iter().map(|(s, _)| s.clone()).collect(),
            live_bytes: points.iter().map(|(_, f)| f.space.live.bytes).collect(),
            vars,
            types,
        }
    }

    /// The trend as a table: one row per variable and type, one column per snapshot.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let cell = |v: &Option<u64>| v.map_or("-".to_string(), |b| b.to_string());
        let header = |s: &mut String, what: &str| {
            let _ = write!(s, "{what:<28}");
            for i in 0..self.snapshots.len() {
                let _ = write!(s, " {:>12}", format!("#{}", i + 1));
            }
            s.push('\n');
        };
        let _ = writeln!(s, "snapshots (retained bytes per snapshot, in this order):");
        for (i, name) in self.snapshots.iter().enumerate() {
            let _ = writeln!(s, "  #{} {}", i + 1, name);
        }
        s.push('\n');
        header(&mut s, "variable");
        for v in &self.vars {
            let _ = write!(s, "{:<28}", v.name);
            for b in &v.retained_bytes {
                let _ = write!(s, " {:>12}", cell(b));
            }
            s.push('\n');
        }
        let _ = write!(s, "{:<28}", "(live)");
        for b in &self.live_bytes {
            let _ = write!(s, " {b:>12}");
        }
        s.push_str("\n\n");
        header(&mut s, "type");
        for t in &self.types {
            let _ = write!(s, "{:<28}", t.name);
            for b in &t.retained_bytes {
                let _ = write!(s, " {:>12}", cell(b));
            }
            s.push('\n');
        }
        s
    }
}
