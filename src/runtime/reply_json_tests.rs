//! The number rule of `mo-mem call --json` (`docs/formats.md`, "Numbers in JSON"), as a
//! property: every Candid numeric type, at its extremes and at random values, encoded to Candid
//! bytes and decoded with its type (as a reply is), then rendered: a JSON number equal to the
//! value when |x| ≤ 2^53, otherwise a string of exactly its plain decimal digits.

use super::reply_json::args_json;
use super::reply_schema::reply_schema;
use candid::types::value::IDLValue;
use candid::types::{Type, TypeInner};
use candid::{IDLArgs, Int, Nat, TypeEnv};
use num_bigint::{BigInt, BigUint};
use serde_json::Value;

const SAFE: u64 = 1 << 53;

/// A value of type `ty` holding the integer `x`, or `None` when `x` does not fit `ty`.
fn candid_int(ty: &str, x: &BigInt) -> Option<IDLValue> {
    Some(match ty {
        "nat" => IDLValue::Nat(Nat(BigUint::try_from(x.clone()).ok()?)),
        "int" => IDLValue::Int(Int(x.clone())),
        "nat8" => IDLValue::Nat8(u8::try_from(x).ok()?),
        "nat16" => IDLValue::Nat16(u16::try_from(x).ok()?),
        "nat32" => IDLValue::Nat32(u32::try_from(x).ok()?),
        "nat64" => IDLValue::Nat64(u64::try_from(x).ok()?),
        "int8" => IDLValue::Int8(i8::try_from(x).ok()?),
        "int16" => IDLValue::Int16(i16::try_from(x).ok()?),
        "int32" => IDLValue::Int32(i32::try_from(x).ok()?),
        "int64" => IDLValue::Int64(i64::try_from(x).ok()?),
        _ => unreachable!("{ty}"),
    })
}

fn candid_type(ty: &str) -> Type {
    match ty {
        "nat" => TypeInner::Nat,
        "int" => TypeInner::Int,
        "nat8" => TypeInner::Nat8,
        "nat16" => TypeInner::Nat16,
        "nat32" => TypeInner::Nat32,
        "nat64" => TypeInner::Nat64,
        "int8" => TypeInner::Int8,
        "int16" => TypeInner::Int16,
        "int32" => TypeInner::Int32,
        "int64" => TypeInner::Int64,
        "float32" => TypeInner::Float32,
        "float64" => TypeInner::Float64,
        _ => unreachable!("{ty}"),
    }
    .into()
}

const INTEGER_TYPES: [&str; 10] = [
    "nat", "int", "nat8", "nat16", "nat32", "nat64", "int8", "int16", "int32", "int64",
];

/// `v` as a reply is seen: Candid bytes decoded with its type, then `mo-mem call --json`.
fn reply_json(v: IDLValue, ty: &str) -> Value {
    let bytes = IDLArgs::new(&[v]).to_bytes().expect("encodes");
    let decoded = IDLArgs::from_bytes_with_types(&bytes, &TypeEnv::new(), &[candid_type(ty)])
        .expect("decodes with its type");
    let Value::Array(mut results) = args_json(&decoded).expect("renders") else {
        panic!("a reply is an array")
    };
    assert_eq!(results.len(), 1);
    results.remove(0)
}

/// Whether `json` (one result) validates against the reply schema made from `ty`.
fn fits_schema(ty: &str, json: &Value) -> bool {
    let schema = reply_schema(&TypeEnv::new(), "m", &[candid_type(ty)]);
    let validator = jsonschema::draft202012::new(&schema).expect("a valid schema");
    validator.is_valid(&Value::Array(vec![json.clone()]))
}

/// Checks the rule for the integer `x` rendered as `json`.
fn check_integer(ty: &str, x: &BigInt, json: &Value) {
    let safe = x.magnitude() <= &BigUint::from(SAFE);
    match json {
        Value::Number(n) => {
            assert!(safe, "{ty} {x}: a number beyond 2^53: {n}");
            let back: BigInt = n.to_string().parse().expect("an integer");
            assert_eq!(&back, x, "{ty}: {json}");
        }
        Value::String(s) => {
            assert!(!safe, "{ty} {x}: a string within 2^53: {s:?}");
            assert_eq!(
                s,
                &x.to_string(),
                "{ty}: plain decimal digits, no separators"
            );
        }
        other => panic!("{ty} {x}: {other}"),
    }
}

fn extremes() -> Vec<BigInt> {
    let two = BigInt::from(2);
    let mut xs: Vec<BigInt> = [0i64, 1, 999, 1000, 10_000, 100_000_000]
        .into_iter()
        .map(BigInt::from)
        .collect();
    for bits in [7u32, 8, 15, 16, 31, 32, 53, 63, 64, 65, 128] {
        let p = two.pow(bits);
        xs.extend([p.clone() - 1, p.clone(), p + 1]);
    }
    let negatives: Vec<BigInt> = xs.iter().map(|x| -x.clone()).collect();
    xs.extend(negatives);
    xs
}

#[test]
fn every_integer_type_at_its_extremes_follows_the_number_rule() {
    let mut checked = 0;
    for ty in INTEGER_TYPES {
        for x in extremes() {
            if let Some(v) = candid_int(ty, &x) {
                let json = reply_json(v, ty);
                check_integer(ty, &x, &json);
                assert!(fits_schema(ty, &json), "{ty} {x}: {json} and its schema");
                // The other rendering of the same number breaks the schema: a number beyond
                // 2^53, a string within, digits grouped by `_`.
                let digits = x.to_string();
                let wrong = match &json {
                    Value::String(_) => serde_json::from_str::<Value>(&digits).unwrap(),
                    _ => Value::String(digits.clone()),
                };
                assert!(
                    !fits_schema(ty, &wrong),
                    "{ty} {x}: {wrong} fits its schema"
                );
                if x.magnitude() >= &BigUint::from(1000u32) {
                    let grouped = Value::String(candid::Int(x.clone()).to_string());
                    assert!(grouped.as_str().unwrap().contains('_'));
                    assert!(
                        !fits_schema(ty, &grouped),
                        "{ty}: {grouped} fits its schema"
                    );
                }
                checked += 1;
            }
        }
    }
    // Every type got its in-range extremes: nat 36 (0 and 35 positives), int 71, ...
    assert!(checked > 300, "{checked}");
}

#[test]
fn random_integers_follow_the_number_rule() {
    let mut rng = fastrand::Rng::with_seed(40);
    for _ in 0..2000 {
        let ty = INTEGER_TYPES[rng.usize(..INTEGER_TYPES.len())];
        // Magnitudes spread over every bit length up to 100.
        let bits = rng.u32(0..100);
        let magnitude = (BigUint::from(rng.u64(..)) << 64 | BigUint::from(rng.u64(..)))
            >> (128 - bits.min(127));
        let x = if rng.bool() {
            -BigInt::from(magnitude)
        } else {
            BigInt::from(magnitude)
        };
        if let Some(v) = candid_int(ty, &x) {
            check_integer(ty, &x, &reply_json(v, ty));
        }
    }
}

#[test]
fn the_issue_example_is_numbers() {
    // basic_dao's get_system_params: "100_000_000" and "10_000" in debug_show.
    let parsed = candid_parser::parse_idl_args("(100_000_000 : nat, 10_000 : nat, -10_000 : int)")
        .expect("Candid text");
    let json = args_json(&parsed).expect("renders");
    assert_eq!(json.to_string(), "[100000000,10000,-10000]");
    // An untyped number (Candid text without an annotation) follows the rule too.
    let untyped =
        candid_parser::parse_idl_args("(1_000, 9_007_199_254_740_993)").expect("Candid text");
    assert_eq!(
        args_json(&untyped).expect("renders").to_string(),
        r#"[1000,"9007199254740993"]"#
    );
}

#[test]
fn floats_are_numbers_and_non_finite_ones_named_strings() {
    let cases64 = [
        (0.0, "0.0"),
        (-0.0, "-0.0"),
        (1000.0, "1000.0"),
        (9007199254740993.0, "9007199254740992.0"),
        (1e300, "1e+300"),
        (f64::MIN_POSITIVE, "2.2250738585072014e-308"),
        (f64::NAN, "\"NaN\""),
        (f64::INFINITY, "\"inf\""),
        (f64::NEG_INFINITY, "\"-inf\""),
    ];
    for (x, want) in cases64 {
        let json = reply_json(IDLValue::Float64(x), "float64");
        assert_eq!(json.to_string(), want, "{x}");
        assert!(fits_schema("float64", &json), "{json}");
    }
    assert!(!fits_schema("float64", &Value::String("nan".into())));
    let cases32 = [
        (0.1f32, "0.1"),
        (-2.5, "-2.5"),
        (f32::MAX, "3.4028235e+38"),
        (16777217.0, "16777216.0"),
        (f32::NAN, "\"NaN\""),
        (f32::INFINITY, "\"inf\""),
        (f32::NEG_INFINITY, "\"-inf\""),
    ];
    for (x, want) in cases32 {
        assert_eq!(
            reply_json(IDLValue::Float32(x), "float32").to_string(),
            want,
            "{x}"
        );
    }
}
