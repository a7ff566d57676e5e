//! The module tables: which `mo:core` functions are built in, by module.

use super::args::{arg, text_arg, wrong};
use super::arrays as a;
use super::base;
use super::blobs as b;
use super::collections as c;
use super::fixed::{self, to_kind};
use super::floats as f;
use super::iter_adapters as i;
use super::numbers as n;
use super::ranges as r;
use super::scalars as s;
use super::text as t;
use super::text_match as tm;
use super::Module;
use crate::script::eval::{trap, trap_in_prim, EResult, Interp};
use crate::script::value::{NumKind, Value};
use std::rc::Rc;

const INT: Option<NumKind> = Some(NumKind::Int);
const NAT: Option<NumKind> = Some(NumKind::Nat);
const FLOAT: Option<NumKind> = Some(NumKind::Float);
const NAT8: Option<NumKind> = Some(NumKind::Nat8);
const NAT16: Option<NumKind> = Some(NumKind::Nat16);
const NAT32: Option<NumKind> = Some(NumKind::Nat32);
const NAT64: Option<NumKind> = Some(NumKind::Nat64);
const INT8: Option<NumKind> = Some(NumKind::Int8);
const INT16: Option<NumKind> = Some(NumKind::Int16);
const INT32: Option<NumKind> = Some(NumKind::Int32);
const INT64: Option<NumKind> = Some(NumKind::Int64);

fn debug_print(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> EResult {
    let s = text_arg(a, 0, "Debug.print")?;
    it.print(&s)?;
    Ok(Value::Unit)
}

fn runtime_trap(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> EResult {
    let s = text_arg(a, 0, "Runtime.trap")?;
    Err(trap_in_prim(
        "prim:63.31-63.42",
        format!("explicit trap: {s}"),
    ))
}

fn runtime_unreachable(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> EResult {
    Err(trap("unreachable"))
}

fn principal_to_text(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> EResult {
    match arg(a, 0, "Principal.toText")? {
        Value::Principal(p) => Ok(Value::text(&crate::script::value::show::principal_text(p))),
        other => Err(wrong("Principal.toText", "Principal", other)),
    }
}

fn principal_from_text(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> EResult {
    let s = text_arg(a, 0, "Principal.fromText")?;
    let compact: String = s
        .chars()
        .filter(|c| *c != '-')
        .collect::<String>()
        .to_uppercase();
    let bytes = base32::decode(base32::Alphabet::Rfc4648 { padding: false }, &compact)
        .filter(|b| b.len() >= 4 && b.len() <= 33)
        .ok_or_else(|| trap("Principal.fromText: not a principal"))?;
    let body = &bytes[4..];
    if crate::script::value::show::principal_text(body) != *s {
        return Err(trap("Principal.fromText: checksum mismatch"));
    }
    Ok(Value::Principal(Rc::from(body)))
}

fn principal_to_blob(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> EResult {
    match arg(a, 0, "Principal.toBlob")? {
        Value::Principal(p) => Ok(Value::Blob(p.clone())),
        other => Err(wrong("Principal.toBlob", "Principal", other)),
    }
}

fn principal_from_blob(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> EResult {
    match arg(a, 0, "Principal.fromBlob")? {
        Value::Blob(p) => Ok(Value::Principal(p.clone())),
        other => Err(wrong("Principal.fromBlob", "Blob", other)),
    }
}

fn principal_is_anonymous(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> EResult {
    match arg(a, 0, "Principal.isAnonymous")? {
        Value::Principal(p) => Ok(Value::Bool(**p == [4u8])),
        other => Err(wrong("Principal.isAnonymous", "Principal", other)),
    }
}

fn principal_anonymous(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> EResult {
    Ok(Value::Principal(Rc::from(&[4u8][..])))
}

fn bool_to_text(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> EResult {
    match arg(a, 0, "Bool.toText")? {
        Value::Bool(b) => Ok(Value::text(if *b { "true" } else { "false" })),
        other => Err(wrong("Bool.toText", "Bool", other)),
    }
}

fn float_pi() -> Value {
    Value::Float(std::f64::consts::PI)
}

fn float_e() -> Value {
    Value::Float(std::f64::consts::E)
}

static DEBUG: Module = Module {
    name: "Debug",
    members: &[func!("print", debug_print), func!("todo", s::debug_todo)],
};

static RUNTIME: Module = Module {
    name: "Runtime",
    members: &[
        func!("trap", runtime_trap),
        func!("unreachable", runtime_unreachable),
    ],
};

static NAT_MOD: Module = Module {
    name: "Nat",
    members: &[
        func!("toText", n::to_text, &[NAT]),
        func!("fromText", n::nat_from_text),
        func!("toInt", n::to_int, &[NAT]),
        func!("fromInt", n::int_to_nat, &[INT]),
        func!("toNat", n::nat_from_text),
        func!("range", r::nat_range, &[NAT, NAT]),
        func!("rangeInclusive", r::nat_range_inclusive, &[NAT, NAT]),
        func!("rangeBy", r::nat_range_by, &[NAT, NAT, INT]),
        func!(
            "rangeByInclusive",
            r::nat_range_by_inclusive,
            &[NAT, NAT, INT]
        ),
        func!("allValues", r::nat_all_values),
        func!("toNat8", to_kind::<fixed::N8>, &[NAT]),
        func!("toNat16", to_kind::<fixed::N16>, &[NAT]),
        func!("toNat32", to_kind::<fixed::N32>, &[NAT]),
        func!("toNat64", to_kind::<fixed::N64>, &[NAT]),
        func!("fromNat8", n::int_to_nat, &[NAT8]),
        func!("fromNat16", n::int_to_nat, &[NAT16]),
        func!("fromNat32", n::int_to_nat, &[NAT32]),
        func!("fromNat64", n::int_to_nat, &[NAT64]),
        func!("bitshiftLeft", n::nat_shift_left, &[NAT, NAT32]),
        func!("bitshiftRight", n::nat_shift_right, &[NAT, NAT32]),
        func!("compare", c::compare, &[NAT, NAT]),
        func!("equal", c::equal, &[NAT, NAT]),
        func!("notEqual", n::not_equal, &[NAT, NAT]),
        func!("less", n::less, &[NAT, NAT]),
        func!("lessOrEqual", n::less_or_equal, &[NAT, NAT]),
        func!("greater", n::greater, &[NAT, NAT]),
        func!("greaterOrEqual", n::greater_or_equal, &[NAT, NAT]),
        func!("min", n::min, &[NAT, NAT]),
        func!("max", n::max, &[NAT, NAT]),
        func!("add", n::add, &[NAT, NAT]),
        func!("sub", n::sub, &[NAT, NAT]),
        func!("mul", n::mul, &[NAT, NAT]),
        func!("div", n::div, &[NAT, NAT]),
        func!("rem", n::rem, &[NAT, NAT]),
        func!("pow", n::pow, &[NAT, NAT]),
    ],
};

static INT_MOD: Module = Module {
    name: "Int",
    members: &[
        func!("toText", n::to_text, &[INT]),
        func!("fromText", n::int_from_text),
        func!("abs", n::int_abs, &[INT]),
        func!("neg", n::int_neg, &[INT]),
        func!("toNat", n::int_to_nat, &[INT]),
        func!("fromNat", n::to_int, &[NAT]),
        func!("toInt", n::int_from_text),
        func!("range", r::int_range, &[INT, INT]),
        func!("rangeInclusive", r::int_range_inclusive, &[INT, INT]),
        func!("rangeBy", r::int_range_by, &[INT, INT, INT]),
        func!(
            "rangeByInclusive",
            r::int_range_by_inclusive,
            &[INT, INT, INT]
        ),
        func!("toInt8", to_kind::<fixed::I8>, &[INT]),
        func!("toInt16", to_kind::<fixed::I16>, &[INT]),
        func!("toInt32", to_kind::<fixed::I32>, &[INT]),
        func!("toInt64", to_kind::<fixed::I64>, &[INT]),
        func!("fromInt8", n::to_int, &[INT8]),
        func!("fromInt16", n::to_int, &[INT16]),
        func!("fromInt32", n::to_int, &[INT32]),
        func!("fromInt64", n::to_int, &[INT64]),
        func!("compare", c::compare, &[INT, INT]),
        func!("equal", c::equal, &[INT, INT]),
        func!("notEqual", n::not_equal, &[INT, INT]),
        func!("less", n::less, &[INT, INT]),
        func!("lessOrEqual", n::less_or_equal, &[INT, INT]),
        func!("greater", n::greater, &[INT, INT]),
        func!("greaterOrEqual", n::greater_or_equal, &[INT, INT]),
        func!("min", n::min, &[INT, INT]),
        func!("max", n::max, &[INT, INT]),
        func!("add", n::add, &[INT, INT]),
        func!("sub", n::sub, &[INT, INT]),
        func!("mul", n::mul, &[INT, INT]),
        func!("div", n::div, &[INT, INT]),
        func!("rem", n::rem, &[INT, INT]),
        func!("pow", n::pow, &[INT, INT]),
    ],
};

static FLOAT_MOD: Module = Module {
    name: "Float",
    members: &[
        constant!("pi", float_pi),
        constant!("e", float_e),
        func!("toText", n::to_text, &[FLOAT]),
        func!("format", super::float_format::format, &[FLOAT]),
        func!("fromInt", n::float_from_int, &[INT]),
        func!("toInt", f::to_int, &[FLOAT]),
        func!("fromInt64", f::from_int64, &[INT64]),
        func!("toInt64", f::to_int64, &[FLOAT]),
        func!("sqrt", f::sqrt, &[FLOAT]),
        func!("abs", f::abs, &[FLOAT]),
        func!("floor", f::floor, &[FLOAT]),
        func!("ceil", f::ceil, &[FLOAT]),
        func!("trunc", f::trunc, &[FLOAT]),
        func!("nearest", f::nearest, &[FLOAT]),
        func!("copySign", f::copy_sign, &[FLOAT, FLOAT]),
        func!("sin", f::sin, &[FLOAT]),
        func!("cos", f::cos, &[FLOAT]),
        func!("tan", f::tan, &[FLOAT]),
        func!("arcsin", f::arcsin, &[FLOAT]),
        func!("arccos", f::arccos, &[FLOAT]),
        func!("arctan", f::arctan, &[FLOAT]),
        func!("arctan2", f::arctan2, &[FLOAT, FLOAT]),
        func!("exp", f::exp, &[FLOAT]),
        func!("log", f::log, &[FLOAT]),
        func!("pow", f::pow, &[FLOAT, FLOAT]),
        func!("min", f::min, &[FLOAT, FLOAT]),
        func!("max", f::max, &[FLOAT, FLOAT]),
        func!("isNaN", f::is_nan, &[FLOAT]),
        func!("compare", f::compare, &[FLOAT, FLOAT]),
        func!("equal", f::equal, &[FLOAT, FLOAT, FLOAT]),
        func!("notEqual", f::not_equal, &[FLOAT, FLOAT, FLOAT]),
        func!("less", n::less, &[FLOAT, FLOAT]),
        func!("lessOrEqual", n::less_or_equal, &[FLOAT, FLOAT]),
        func!("greater", n::greater, &[FLOAT, FLOAT]),
        func!("greaterOrEqual", n::greater_or_equal, &[FLOAT, FLOAT]),
        func!("neg", f::neg, &[FLOAT]),
        func!("add", f::add, &[FLOAT, FLOAT]),
        func!("sub", f::sub, &[FLOAT, FLOAT]),
        func!("mul", f::mul, &[FLOAT, FLOAT]),
        func!("div", f::div, &[FLOAT, FLOAT]),
        func!("rem", f::rem, &[FLOAT, FLOAT]),
    ],
};

static CHAR_MOD: Module = Module {
    name: "Char",
    members: &[
        func!("toNat32", t::char_to_nat32),
        func!("fromNat32", t::char_from_nat32),
        func!("toText", t::char_to_text),
        func!("isDigit", t::is_digit),
        func!("isWhitespace", t::is_whitespace),
        func!("isUppercase", t::is_uppercase),
        func!("isLowercase", t::is_lowercase),
        func!("isUpper", t::is_uppercase),
        func!("isLower", t::is_lowercase),
        func!("isAlphabetic", t::is_alphabetic),
        func!("toUpper", t::char_to_upper),
        func!("toLower", t::char_to_lower),
        func!("compare", c::compare),
        func!("equal", c::equal),
        func!("notEqual", n::not_equal),
        func!("less", n::less),
        func!("lessOrEqual", n::less_or_equal),
        func!("greater", n::greater),
        func!("greaterOrEqual", n::greater_or_equal),
    ],
};

static TEXT_MOD: Module = Module {
    name: "Text",
    members: &[
        func!("size", t::size),
        func!("concat", t::concat),
        func!("join", t::join),
        func!("contains", t::contains),
        func!("startsWith", t::starts_with),
        func!("endsWith", t::ends_with),
        func!("stripStart", tm::strip_start),
        func!("stripEnd", tm::strip_end),
        func!("split", t::split),
        func!("tokens", t::tokens),
        func!("replace", t::replace),
        func!("trim", tm::trim),
        func!("trimStart", tm::trim_start),
        func!("trimEnd", tm::trim_end),
        func!("fromChar", t::from_char),
        func!("fromIter", t::from_iter),
        func!("fromArray", t::from_array),
        func!("fromVarArray", t::from_array),
        func!("toArray", t::to_array),
        func!("toVarArray", t::to_var_array),
        func!("toIter", t::chars),
        func!("foldLeft", t::fold_left),
        func!("map", t::map),
        func!("flatMap", t::flat_map),
        func!("reverse", t::reverse),
        func!("toUpper", t::to_upper),
        func!("toLower", t::to_lower),
        func!("isEmpty", t::is_empty),
        func!("encodeUtf8", t::encode_utf8),
        blob_func!("decodeUtf8", t::decode_utf8),
        func!("compare", c::compare),
        func!("compareWith", t::compare_with),
        func!("equal", c::equal),
        func!("notEqual", n::not_equal),
        func!("less", n::less),
        func!("lessOrEqual", n::less_or_equal),
        func!("greater", n::greater),
        func!("greaterOrEqual", n::greater_or_equal),
        func!("hash", super::base_trees::text_hash),
    ],
};

static ARRAY_MOD: Module = Module {
    name: "Array",
    members: &[
        func!("size", c::values_size),
        func!("tabulate", c::tabulate),
        func!("repeat", c::repeat),
        func!("map", c::map),
        func!("mapEntries", a::map_entries),
        func!("mapResult", a::map_result),
        func!("filter", c::filter),
        func!("filterMap", c::filter_map),
        func!("flatMap", c::flat_map),
        func!("foldLeft", c::fold_left),
        func!("foldRight", c::fold_right),
        func!("find", c::find),
        func!("findIndex", c::find_index),
        func!("indexOf", c::index_of),
        func!("nextIndexOf", a::next_index_of, &[None, None, None, NAT]),
        func!("lastIndexOf", a::last_index_of),
        func!("prevIndexOf", a::prev_index_of, &[None, None, None, NAT]),
        func!("binarySearch", a::binary_search),
        func!("contains", c::contains),
        func!("any", c::any),
        func!("all", c::all),
        func!("forEach", c::for_each),
        func!("reverse", c::reverse),
        func!("concat", c::concat),
        func!("flatten", c::flatten),
        func!("sort", c::sort),
        func!("fromIter", c::from_iter),
        func!("toVarArray", c::to_var_array),
        func!("fromVarArray", c::from_var_array),
        func!("values", c::values),
        func!("vals", c::values),
        func!("keys", c::values_keys),
        func!("enumerate", c::enumerate),
        func!("isEmpty", c::is_empty),
        func!("empty", c::empty),
        func!("singleton", c::singleton),
        func!("range", a::range, &[None, INT, INT]),
        func!("sliceToArray", a::slice_to_array, &[None, INT, INT]),
        func!("sliceToVarArray", a::slice_to_var_array, &[None, INT, INT]),
        // mo:base names
        func!("append", c::concat),
        func!("freeze", c::from_var_array),
        func!("thaw", c::to_var_array),
        func!("tabulateVar", c::tabulate_var),
        func!("init", base::array_init),
        func!("subArray", base::sub_array),
    ],
};

static VAR_ARRAY_MOD: Module = Module {
    name: "VarArray",
    members: &[
        func!("size", c::values_size),
        func!("tabulate", c::tabulate_var),
        func!("repeat", c::repeat_var),
        func!("singleton", a::singleton),
        func!("clone", a::clone),
        func!("map", c::map_var),
        func!("mapEntries", a::map_entries_var),
        func!("mapResult", a::map_result_var),
        func!("mapInPlace", a::map_in_place),
        func!("flatMap", a::flat_map),
        func!("flatten", a::flatten),
        func!("concat", a::concat),
        func!("foldLeft", c::fold_left),
        func!("find", c::find),
        func!("forEach", c::for_each),
        func!("nextIndexOf", a::next_index_of, &[None, None, None, NAT]),
        func!("lastIndexOf", a::last_index_of),
        func!("prevIndexOf", a::prev_index_of, &[None, None, None, NAT]),
        func!("binarySearch", a::binary_search),
        func!("reverse", a::reverse),
        func!("reverseInPlace", a::reverse_in_place),
        func!("sort", a::sort),
        func!("sortInPlace", c::sort_in_place),
        func!("fromArray", c::to_var_array),
        func!("toArray", c::from_var_array),
        func!("fromIter", c::from_iter_var),
        func!("values", c::values),
        func!("keys", c::values_keys),
        func!("range", a::range, &[None, INT, INT]),
        func!("sliceToArray", a::slice_to_array, &[None, INT, INT]),
        func!("sliceToVarArray", a::slice_to_var_array, &[None, INT, INT]),
        func!("empty", c::empty_var),
        func!("isEmpty", c::is_empty),
    ],
};

static ITER_MOD: Module = Module {
    name: "Iter",
    members: &[
        func!("toArray", c::iter_to_array),
        func!("toVarArray", c::from_iter_var),
        func!("map", c::iter_map),
        func!("filter", c::iter_filter),
        func!("filterMap", i::filter_map),
        func!("take", c::iter_take),
        func!("takeWhile", i::take_while),
        func!("drop", i::drop),
        func!("dropWhile", i::drop_while),
        func!("step", i::step, &[None, NAT]),
        func!("enumerate", c::iter_enumerate),
        func!("concat", c::iter_concat),
        func!("flatten", i::flatten),
        func!("flatMap", i::flat_map),
        func!("zip", i::zip),
        func!("zip3", i::zip3),
        func!("zipWith", i::zip_with),
        func!("zipWith3", i::zip_with3),
        func!("size", c::iter_size),
        func!("forEach", c::iter_for_each),
        func!("foldLeft", c::iter_fold_left),
        func!("reduce", i::reduce),
        func!("scanLeft", i::scan_left),
        func!("scanRight", i::scan_right),
        func!("find", c::iter_find),
        func!("sort", i::sort),
        func!("fromArray", c::iter_from_array),
        func!("fromVarArray", c::iter_from_array),
        func!("empty", c::iter_empty),
        func!("singleton", c::iter_singleton),
        func!("unfold", i::unfold),
        func!("infinite", i::infinite),
        func!("repeat", i::repeat, &[None, NAT]),
        func!("reverse", c::iter_reverse),
        // mo:base names
        func!("range", base::iter_range, &[NAT, NAT]),
        func!("revRange", base::iter_rev_range, &[INT, INT]),
    ],
};

static OPTION_MOD: Module = Module {
    name: "Option",
    members: &[
        func!("get", c::opt_get),
        func!("isSome", c::opt_is_some),
        func!("isNull", c::opt_is_null),
        func!("map", c::opt_map),
        func!("chain", c::opt_chain),
        func!("unwrap", c::opt_unwrap),
        func!("some", c::opt_some),
        func!("equal", c::opt_equal),
        func!("apply", s::option_apply),
        func!("compare", s::option_compare),
        func!("flatten", s::option_flatten),
        func!("getMapped", s::option_get_mapped),
    ],
};

static BLOB_MOD: Module = Module {
    name: "Blob",
    members: &[
        blob_func!("size", c::values_size),
        func!("fromArray", c::blob_from_array),
        blob_func!("toArray", c::blob_to_array),
        blob_func!("compare", c::compare),
        blob_func!("equal", c::equal),
        blob_func!("notEqual", n::not_equal),
        blob_func!("less", n::less),
        blob_func!("lessOrEqual", n::less_or_equal),
        blob_func!("greater", n::greater),
        blob_func!("greaterOrEqual", n::greater_or_equal),
        func!("empty", b::blob_empty),
        blob_func!("isEmpty", b::blob_is_empty),
        func!("fromVarArray", c::blob_from_array),
        blob_func!("toVarArray", b::blob_to_var_array),
        blob_func!("hash", b::blob_hash),
    ],
};

static PRINCIPAL_MOD: Module = Module {
    name: "Principal",
    members: &[
        func!("toText", principal_to_text),
        func!("fromText", principal_from_text),
        func!("toBlob", principal_to_blob),
        blob_func!("fromBlob", principal_from_blob),
        func!("isAnonymous", principal_is_anonymous),
        func!("anonymous", principal_anonymous),
        func!("compare", c::compare),
        func!("equal", c::equal),
        func!("notEqual", n::not_equal),
        func!("less", n::less),
        func!("lessOrEqual", n::less_or_equal),
        func!("greater", n::greater),
        func!("greaterOrEqual", n::greater_or_equal),
        func!("hash", b::principal_hash),
        func!("isCanister", b::principal_is_canister),
        func!("isSelfAuthenticating", b::principal_is_self_authenticating),
        func!("isReserved", b::principal_is_reserved),
        func!("toLedgerAccount", b::principal_to_ledger_account),
    ],
};

static BOOL_MOD: Module = Module {
    name: "Bool",
    members: &[
        func!("toText", bool_to_text),
        func!("compare", c::compare),
        func!("equal", c::equal),
        func!("logicalAnd", s::logical_and),
        func!("logicalOr", s::logical_or),
        func!("logicalXor", s::logical_xor),
        func!("logicalNot", s::logical_not),
        func!("allValues", s::bool_all_values),
    ],
};

/// The tag of an `Order` value (`#less`, `#equal`, `#greater`).
fn order_tag<'a>(
    a: &'a [Value],
    i: usize,
    who: &str,
) -> Result<&'a str, crate::script::eval::Ctrl> {
    match super::args::arg(a, i, who)? {
        Value::Variant(tv) if matches!(&*tv.0, "less" | "equal" | "greater") => Ok(&tv.0),
        other => Err(wrong(who, "Order", other)),
    }
}

fn order_is_less(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> EResult {
    Ok(Value::Bool(order_tag(a, 0, "Order.isLess")? == "less"))
}

fn order_is_equal(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> EResult {
    Ok(Value::Bool(order_tag(a, 0, "Order.isEqual")? == "equal"))
}

fn order_is_greater(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> EResult {
    Ok(Value::Bool(
        order_tag(a, 0, "Order.isGreater")? == "greater",
    ))
}

fn order_equal(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> EResult {
    Ok(Value::Bool(
        order_tag(a, 0, "Order.equal")? == order_tag(a, 1, "Order.equal")?,
    ))
}

static ORDER_MOD: Module = Module {
    name: "Order",
    members: &[
        func!("isLess", order_is_less),
        func!("isEqual", order_is_equal),
        func!("isGreater", order_is_greater),
        func!("equal", order_equal),
        func!("allValues", s::order_all_values),
    ],
};

/// Every built-in module.
pub static ALL: &[&Module] = &[
    &DEBUG,
    &RUNTIME,
    &NAT_MOD,
    &INT_MOD,
    &fixed::NAT8,
    &fixed::NAT16,
    &fixed::NAT32,
    &fixed::NAT64,
    &fixed::INT8,
    &fixed::INT16,
    &fixed::INT32,
    &fixed::INT64,
    &FLOAT_MOD,
    &CHAR_MOD,
    &TEXT_MOD,
    &ARRAY_MOD,
    &VAR_ARRAY_MOD,
    &ITER_MOD,
    &OPTION_MOD,
    &BLOB_MOD,
    &PRINCIPAL_MOD,
    &BOOL_MOD,
    &ORDER_MOD,
    &super::containers::MAP_MOD,
    &super::containers::LIST_MOD,
    &super::set::SET_MOD,
    &super::pure::PURE_MAP_MOD,
    &super::pure::PURE_SET_MOD,
    &super::pure::PURE_LIST_MOD,
    &super::pure::PURE_QUEUE_MOD,
    &super::queues::QUEUE_MOD,
    &super::queues::STACK_MOD,
    &super::queues::PRIORITY_QUEUE_MOD,
    &super::result::RESULT_MOD,
    &super::base_trees::TRIE_MOD,
    &super::base_trees::RBTREE_MOD,
    &super::base_trees::ASSOC_LIST_MOD,
];
