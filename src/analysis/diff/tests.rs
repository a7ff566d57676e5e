//! Unit tests of the diff's pure parts (the fixtures' diffs are in tests/it/analysis_diff.rs).

use super::trend::{Series, Trend};
use super::trend_svg::trend_svg;
use super::vars::delta;

#[test]
fn delta_counts_a_missing_side_as_zero_and_saturates() {
    assert_eq!(delta(Some(10), Some(4)), -6);
    assert_eq!(delta(None, Some(4)), 4);
    assert_eq!(delta(Some(4), None), -4);
    assert_eq!(delta(Some(0), Some(u64::MAX)), i64::MAX);
}

#[test]
fn the_chart_draws_one_line_per_variable_and_escapes_names() {
    let t = Trend {
        snapshots: vec!["a".into(), "b<".into()],
        live_bytes: vec![1, 2],
        vars: vec![
            Series {
                name: "x&y".into(),
                retained_bytes: vec![Some(10), Some(20)],
            },
            Series {
                name: "z".into(),
                retained_bytes: vec![None, Some(5)],
            },
        ],
        types: vec![],
    };
    let svg = trend_svg(&t);
    assert_eq!(svg.matches("<polyline").count(), 2);
    assert!(svg.contains("x&amp;y") && svg.contains("b&lt;"));
    // The largest value sits at the top of the plot, zero at its bottom.
    assert!(
        svg.contains(&format!("{:.1},{:.1}", 80.0 + 380.0, 20.0)),
        "{svg}"
    );
}
