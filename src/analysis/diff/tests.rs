//! Unit tests of the diff's pure parts (the fixtures' diffs are in tests/it/analysis_diff.rs).

use super::row::delta;
use super::trend::{Series, Trend};
use super::trend_svg::trend_svg;

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

#[test]
fn leaves_compare_and_hash_alike_exactly_when_they_print_alike() {
    use super::canon::{hash_head, same_leaf};
    use crate::heap::render::debug_show;
    use crate::heap::value::Value;
    use num_bigint::{BigInt, BigUint};
    use siphasher::sip128::{Hasher128, SipHasher13};

    let big: BigUint = BigUint::from(1u8) << 70u32;
    let leaves = vec![
        Value::Nat(BigUint::from(0u8)),
        Value::Nat(BigUint::from(5u8)),
        Value::Nat(big.clone()),
        Value::Int(BigInt::from(0)),
        Value::Int(BigInt::from(5)),
        Value::Int(BigInt::from(-5)),
        Value::Int(BigInt::from(big)),
        Value::Nat8(5),
        Value::Nat64(0),
        Value::Nat64(u64::MAX),
        Value::Int8(5),
        Value::Int8(-5),
        Value::Int64(0),
        Value::Int64(i64::MIN),
        Value::Text("5".into()),
        Value::Text("\\41".into()),
        Value::Text(String::new()),
        Value::Text("a".into()),
        Value::Blob(vec![0x41]),
        Value::Blob(vec![]),
        Value::Char('a'),
        Value::Bool(true),
        Value::Float(5.0),
        Value::Float(f64::NAN),
        Value::Null,
        Value::Unit,
    ];
    let hash = |v: &Value| {
        let mut h = SipHasher13::new();
        hash_head(v, &mut h, &mut String::new());
        h.finish128().as_u128()
    };
    // the second computation: the texts `debug_show` prints
    for a in &leaves {
        for b in &leaves {
            let alike = debug_show(a) == debug_show(b);
            assert_eq!(same_leaf(a, b), alike, "{a:?} {b:?}");
            assert_eq!(hash(a) == hash(b), alike, "{a:?} {b:?}");
        }
    }
    // `"\41"` is both a text and a blob
    assert!(same_leaf(&leaves[15], &leaves[18]));
}
