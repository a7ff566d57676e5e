//! Counting iterators: `Nat.range`, `Int.rangeBy`, `Int8.rangeInclusive`, `Nat16.allValues`,
//! mo:base's `Iter.range`/`revRange` ([`super::base`]), ... One iterator counts for all of
//! them, in any integer type and with any step, in `i128` (every fixed-width value, and
//! `Nat`/`Int` bounds up to 2^127), and one in big integers beyond that.

use super::args::{arg, wrong};
use super::iters::iter_value;
use crate::script::eval::{EResult, Interp};
use crate::script::value::num::{self, to_bigint};
use crate::script::value::{NativeIter, NumKind, Value};
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive};

type R = EResult;

/// The value `x` of `kind` (an integer kind, `x` in its range).
fn value_of(kind: NumKind, x: i128) -> Value {
    match kind {
        NumKind::Nat => match u64::try_from(x) {
            Ok(n) => Value::Nat(n),
            Err(_) => Value::nat_big(BigInt::from(x).to_biguint().unwrap_or_default()),
        },
        NumKind::Int => match i64::try_from(x) {
            Ok(n) => Value::Int(n),
            Err(_) => Value::int_big(BigInt::from(x)),
        },
        k => num::fixed_wrap(k, x),
    }
}

/// Counts `cur, cur + step, ...` while not past `last` (included).
struct Counter {
    cur: i128,
    last: i128,
    step: i128,
    kind: NumKind,
    done: bool,
}

impl NativeIter for Counter {
    fn next(&mut self, _: &mut Interp) -> EResult<Option<Value>> {
        let past = if self.step > 0 {
            self.cur > self.last
        } else {
            self.cur < self.last
        };
        if self.done || past {
            self.done = true;
            return Ok(None);
        }
        let v = self.cur;
        match self.cur.checked_add(self.step) {
            Some(n) => self.cur = n,
            None => self.done = true,
        }
        Ok(Some(value_of(self.kind, v)))
    }

    fn range_bounds(&self) -> Option<(i128, i128, i128, bool)> {
        // the `for` loop's own counting makes `Nat` and `Int` of 64 bits: only ranges whose
        // every value is one, with a step that cannot overflow its counter
        let (lo, hi) = match self.kind {
            NumKind::Nat => (0, u64::MAX as i128),
            NumKind::Int => (i64::MIN as i128, i64::MAX as i128),
            _ => return None,
        };
        let fits = |x: i128| lo <= x && x <= hi;
        if self.done || !fits(self.cur) || !fits(self.last) || self.step.unsigned_abs() > 1 << 64 {
            return None;
        }
        let end = self.last + self.step.signum();
        Some((self.cur, end, self.step, self.kind == NumKind::Int))
    }
}

/// [`Counter`] for bounds or steps beyond `i128` (`Nat` and `Int` only).
struct BigCounter {
    cur: BigInt,
    last: BigInt,
    step: BigInt,
    kind: NumKind,
}

impl NativeIter for BigCounter {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        let past = if self.step.is_positive() {
            self.cur > self.last
        } else {
            self.cur < self.last
        };
        if past {
            return Ok(None);
        }
        it.alloc(self.cur.bits() / 8 + 8)?;
        let next = &self.cur + &self.step;
        let v = std::mem::replace(&mut self.cur, next);
        Ok(Some(match self.kind {
            NumKind::Nat => Value::nat_big(v.to_biguint().unwrap_or_default()),
            _ => Value::int_big(v),
        }))
    }
}

/// An iterator over `from`, `from + step`, ... up to `last` included (down to it for a
/// negative step), of `kind`; `step` is not zero.
pub(super) fn count(kind: NumKind, from: BigInt, last: BigInt, step: BigInt) -> Value {
    match (from.to_i128(), last.to_i128(), step.to_i128()) {
        (Some(cur), Some(last), Some(step)) => iter_value(Counter {
            cur,
            last,
            step,
            kind,
            done: false,
        }),
        _ => iter_value(BigCounter {
            cur: from,
            last,
            step,
            kind,
        }),
    }
}

/// The iterator that yields nothing.
fn empty(kind: NumKind) -> Value {
    iter_value(Counter {
        cur: 0,
        last: 0,
        step: 1,
        kind,
        done: true,
    })
}

/// Argument `i`, an integer.
pub(super) fn int_arg(a: &[Value], i: usize, who: &str) -> EResult<BigInt> {
    let v = arg(a, i, who)?;
    to_bigint(v).ok_or_else(|| wrong(who, "integer", v))
}

/// The integer kind of the elements: the module's (`Nat`, `Int`), or a fixed-width
/// module's, read from argument 0 (the hints make a literal one).
fn kind_of(module: Option<NumKind>, a: &[Value], who: &str) -> EResult<NumKind> {
    if let Some(k) = module {
        return Ok(k);
    }
    let v = arg(a, 0, who)?;
    match NumKind::of(v) {
        Some(NumKind::Float) | None => Err(wrong(who, "integer", v)),
        Some(k) => Ok(k),
    }
}

/// `range(from, toExclusive)`.
fn range(module: Option<NumKind>, a: &[Value]) -> R {
    let kind = kind_of(module, a, "range")?;
    let (from, to) = (int_arg(a, 0, "range")?, int_arg(a, 1, "range")?);
    Ok(if from >= to {
        empty(kind)
    } else {
        count(kind, from, to - 1, BigInt::one())
    })
}

/// `rangeInclusive(from, to)`.
fn range_inclusive(module: Option<NumKind>, a: &[Value]) -> R {
    let kind = kind_of(module, a, "rangeInclusive")?;
    let from = int_arg(a, 0, "rangeInclusive")?;
    let to = int_arg(a, 1, "rangeInclusive")?;
    Ok(if from > to {
        empty(kind)
    } else {
        count(kind, from, to, BigInt::one())
    })
}

/// `rangeBy(from, toExclusive, step)`: up for a positive step, down for a negative one,
/// nothing for a zero step or bounds the other way round.
fn range_by(module: Option<NumKind>, a: &[Value]) -> R {
    let kind = kind_of(module, a, "rangeBy")?;
    let from = int_arg(a, 0, "rangeBy")?;
    let to = int_arg(a, 1, "rangeBy")?;
    let step = int_arg(a, 2, "rangeBy")?;
    Ok(if step.is_positive() && from < to {
        count(kind, from, to - 1, step)
    } else if step.is_negative() && from > to {
        count(kind, from, to + 1, step)
    } else {
        empty(kind)
    })
}

/// `rangeByInclusive(from, to, step)`: as [`range_by`] with `to` included, and `from`
/// alone when `from == to`, whatever the step.
fn range_by_inclusive(module: Option<NumKind>, a: &[Value]) -> R {
    let kind = kind_of(module, a, "rangeByInclusive")?;
    let from = int_arg(a, 0, "rangeByInclusive")?;
    let to = int_arg(a, 1, "rangeByInclusive")?;
    let step = int_arg(a, 2, "rangeByInclusive")?;
    Ok(if from == to {
        count(kind, from, to, BigInt::one())
    } else if step.is_positive() && from < to || step.is_negative() && from > to {
        count(kind, from, to, step)
    } else {
        empty(kind)
    })
}

/// The built-in functions of one range function for `Nat`, `Int` and, for `range` and
/// `rangeInclusive`, the fixed-width modules (whose element type is their arguments').
macro_rules! per_module {
    ($f:ident: $nat:ident, $int:ident $(, $fixed:ident)?) => {
        #[doc = concat!("`Nat.", stringify!($f), "`.")]
        pub fn $nat(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
            $f(Some(NumKind::Nat), a)
        }
        #[doc = concat!("`Int.", stringify!($f), "`.")]
        pub fn $int(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
            $f(Some(NumKind::Int), a)
        }
        $(
            #[doc = concat!("`", stringify!($f), "` of the fixed-width modules.")]
            pub fn $fixed(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                $f(None, a)
            }
        )?
    };
}

per_module!(range: nat_range, int_range, fixed_range);
per_module!(range_inclusive: nat_range_inclusive, int_range_inclusive, fixed_range_inclusive);
per_module!(range_by: nat_range_by, int_range_by);
per_module!(range_by_inclusive: nat_range_by_inclusive, int_range_by_inclusive);

/// `Nat.allValues()`: 0, 1, 2, ... without end.
pub fn nat_all_values(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> R {
    Ok(iter_value(Counter {
        cur: 0,
        last: i128::MAX,
        step: 1,
        kind: NumKind::Nat,
        done: false,
    }))
}

/// Every value of the fixed-width `kind`, from the least (`Int8.allValues()`).
pub fn all_values_of(kind: NumKind) -> Value {
    let bits = kind.bits().unwrap_or(64);
    let (lo, hi) = if kind.signed() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    };
    iter_value(Counter {
        cur: lo,
        last: hi,
        step: 1,
        kind,
        done: false,
    })
}
