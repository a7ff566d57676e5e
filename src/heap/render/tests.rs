//! Renderer tests. Expected `debug_show` strings come from moc itself: its compiled-canister
//! outputs (`test/run/ok/show.wasm-run.ok`) and the pinned moc interpreter (`mo.run`) for
//! the option/variant parenthesisation rules (Float excepted: compiled canisters print six
//! decimals).

use std::sync::Arc;

use num_bigint::{BigInt, BigUint};

use super::*;
use crate::heap::value::{RecordField, Value};

fn nat(n: u64) -> Value {
    Value::Nat(BigUint::from(n))
}
fn int(n: i64) -> Value {
    Value::Int(BigInt::from(n))
}
fn text(s: &str) -> Value {
    Value::Text(s.into())
}
fn some(v: Value) -> Value {
    Value::Opt {
        addr: None,
        value: Box::new(v),
    }
}
fn tuple(items: Vec<Value>) -> Value {
    Value::Tuple { addr: 0, items }
}
fn array(mutable: bool, items: Vec<Value>) -> Value {
    Value::Array {
        addr: 0,
        mutable,
        items,
    }
}
fn variant(tag: &str, payload: Value) -> Value {
    Value::Variant {
        addr: 0,
        tag: Arc::from(tag),
        payload: Box::new(payload),
    }
}
fn record(fields: Vec<(&str, Value)>) -> Value {
    Value::Record {
        addr: 0,
        fields: fields
            .into_iter()
            .map(|(l, v)| RecordField {
                label: Arc::from(l),
                mutable: false,
                value: v,
            })
            .collect(),
    }
}

#[test]
fn compiled_show_outputs() {
    let cases: Vec<(Value, &str)> = vec![
        (Value::Bool(true), "true"),
        (tuple(vec![nat(42), int(-42), Value::Unit]), "(42, -42, ())"),
        (
            tuple(vec![
                text("Foobar"),
                Value::Null,
                Value::Null,
                some(nat(23)),
            ]),
            "(\"Foobar\", null, null, ?23)",
        ),
        (array(false, vec![]), "[]"),
        (array(false, vec![nat(1), nat(2), nat(3)]), "[1, 2, 3]"),
        (array(true, vec![]), "[var]"),
        (array(true, vec![nat(1), nat(2), nat(3)]), "[var 1, 2, 3]"),
        (
            record(vec![("bar", Value::Bool(true)), ("foo", int(42))]),
            "{bar = true; foo = +42}",
        ),
        (variant("foo", Value::Unit), "#foo"),
        (variant("bar", tuple(vec![nat(1), nat(2)])), "#bar(1, 2)"),
        (variant("bar", record(vec![])), "#bar({})"),
        (variant("bar", array(false, vec![])), "#bar([])"),
        (variant("bar", nat(42)), "#bar(42)"),
        (variant("bar", int(-42)), "#bar(-42)"),
        (variant("foo", int(42)), "#foo(+42)"),
        (Value::Nat8(42), "42"),
        (Value::Int32(42), "+42"),
        (Value::Int64(-42), "-42"),
        (Value::Char('☃'), "'☃'"),
        (Value::Float(0.0), "0.000000"),
        (Value::Float(-0.0), "-0.000000"),
        (Value::Float(-42.0), "-42.000000"),
        (Value::Float(1000000.12345), "1000000.123450"),
        (Value::Blob(b"Test".to_vec()), "\"\\54\\65\\73\\74\""),
        (Value::Blob(vec![0, 1, 2, 3, 4]), "\"\\00\\01\\02\\03\\04\""),
        (Value::Blob(vec![0xFF]), "\"\\FF\""),
        (Value::Principal(vec![]), "aaaaa-aa"),
        (
            Value::Int(BigInt::from(-42_000_000_000_000i64)),
            "-42_000_000_000_000",
        ),
    ];
    for (v, want) in cases {
        assert_eq!(debug_show(&v), want, "{v:?}");
    }
}

#[test]
fn option_and_variant_parentheses() {
    let cases: Vec<(Value, &str)> = vec![
        (some(some(Value::Null)), "?(?null)"),
        (some(Value::Null), "?null"),
        (some(int(-1)), "?(-1)"),
        (some(int(1)), "?(+1)"),
        (some(int(0)), "?0"),
        (some(variant("d", Value::Unit)), "?(#d)"),
        (some(Value::Float(-0.5)), "?(-0.500000)"),
        (some(Value::Int8(-3)), "?(-3)"),
        (
            array(
                false,
                vec![
                    variant("a", int(-5)),
                    variant("b", some(nat(3))),
                    variant("c", tuple(vec![nat(1), nat(2)])),
                    variant("d", Value::Unit),
                    variant("e", record(vec![("x", nat(1))])),
                    variant("f", some(int(-2))),
                ],
            ),
            "[#a(-5), #b(?3), #c(1, 2), #d, #e({x = 1}), #f(?(-2))]",
        ),
        (
            record(vec![
                ("a", some(Value::Int8(-3))),
                ("b", Value::Nat64(1)),
                ("c", Value::Int32(-70_000)),
            ]),
            "{a = ?(-3); b = 1; c = -70_000}",
        ),
        // Text and Char are not escaped.
        (
            tuple(vec![text("a\"b\nc"), Value::Char('x'), Value::Char('\n')]),
            "(\"a\"b\nc\", 'x', '\n')",
        ),
        (Value::Principal(vec![4]), "2vxsx-fae"),
        // Float32 as a compiled canister prints it (promoted to f64, six decimals).
        (Value::Float32(1.5), "1.500000"),
        (Value::Float32(-0.1), "-0.100000"),
        (
            Value::Float32(3.0e38),
            "300000000549775575777803994281145270272.000000",
        ),
        (Value::Float32(123.456), "123.456001"),
        // Types debug_show cannot show: mo-mem's documented rendering.
        (
            Value::Region {
                addr: 0,
                id: 16,
                page_count: 3,
                blocks: vec![0],
            },
            "region {id = 16; pages = 3}",
        ),
        (some(Value::Actor(vec![])), "?aaaaa-aa"),
        (Value::Cycle { addr: 0x10 }, "<cycle 0x10>"),
    ];
    for (v, want) in cases {
        assert_eq!(debug_show(&v), want, "{v:?}");
    }
}

#[test]
fn deep_values_render_and_drop_without_recursion() {
    // A 200 000-element Motoko list `?(n, ?(n, …))`.
    let mut v = Value::Null;
    for i in 0..100_000u64 {
        v = some(tuple(vec![nat(i), v]));
    }
    let s = debug_show(&v);
    assert!(s.starts_with("?(99_999, ?(99_998, "));
    assert!(s.contains(", ?(1, ?(0, null))))"));
    assert_eq!(s.len(), s.trim_end_matches(')').len() + 100_000);
    let j = to_json(&v);
    assert!(j.starts_with("[99999,[99998,"));
    drop(v);
}

/// The nesting depth of a JSON text (outside strings).
fn json_depth(j: &str) -> usize {
    let (mut depth, mut max, mut in_str, mut esc) = (0usize, 0usize, false, false);
    for c in j.chars() {
        match (in_str, esc, c) {
            (true, true, _) => esc = false,
            (true, false, '\\') => esc = true,
            (true, false, '"') => in_str = false,
            (true, false, _) => {}
            (false, _, '"') => in_str = true,
            (false, _, '[' | '{') => {
                depth += 1;
                max = max.max(depth);
            }
            (false, _, ']' | '}') => depth -= 1,
            _ => {}
        }
    }
    max
}

#[test]
fn deep_json_is_cut_with_one_form() {
    // A list of 1000 elements whose tuples sit at distinct addresses.
    let mut v = Value::Null;
    for i in 0..1000u64 {
        v = some(Value::Tuple {
            addr: 0x1000 + 16 * i,
            items: vec![nat(i), v],
        });
    }
    let j = to_json(&v);
    assert!(
        json_depth(&j) <= MAX_JSON_DEPTH + 1,
        "depth {}",
        json_depth(&j)
    );
    let parsed: serde_json::Value = serde_json::from_str(&j).expect("serde_json parses it");
    // The first MAX_JSON_DEPTH tuples are whole; the next one is cut (no address: a script
    // value of the same list has none, and renders the same bytes).
    let mut at = &parsed;
    for i in 0..MAX_JSON_DEPTH as u64 {
        assert_eq!(at[0], serde_json::json!(999 - i));
        at = &at[1];
    }
    assert_eq!(at, &serde_json::json!({ "deep": null }));
    // Shallow values are not touched, and closing levels are counted back down.
    let wide = array(
        false,
        (0..500)
            .map(|i| some(tuple(vec![nat(i), text("x")])))
            .collect(),
    );
    let j = to_json(&wide);
    assert!(!j.contains("deep"));
    assert_eq!(json_depth(&j), 2);
}

#[test]
fn json_shapes() {
    let v = record(vec![
        ("big", nat(1 << 60)),
        ("small", nat(7)),
        ("neg", Value::Int(BigInt::from(-(1i64 << 54)))),
        ("f", Value::Float(1.5)),
        ("nan", Value::Float(f64::NAN)),
        ("t", text("a\"b")),
        ("b", Value::Blob(vec![0xAB, 0x01])),
        ("p", Value::Principal(vec![])),
        ("o", some(Value::Null)),
        ("o2", some(nat(3))),
        ("none", Value::Null),
        ("v", variant("red", Value::Unit)),
        ("w", variant("green", nat(1))),
        ("u", Value::Unit),
        ("a", array(true, vec![nat(1), nat(2)])),
    ]);
    let j = to_json(&v);
    let parsed: serde_json::Value = serde_json::from_str(&j).unwrap();
    assert_eq!(
        parsed,
        serde_json::json!({
            "big": "1152921504606846976", "small": 7, "neg": "-18014398509481984",
            "f": 1.5, "nan": "NaN", "t": "a\"b", "b": {"blob": "ab01"},
            "p": {"principal": "aaaaa-aa"}, "o": {"some": null}, "o2": 3, "none": null,
            "v": {"#red": null}, "w": {"#green": 1}, "u": [], "a": [1, 2]
        })
    );
    // Field order is kept.
    assert!(j.starts_with("{\"big\":"));
}
