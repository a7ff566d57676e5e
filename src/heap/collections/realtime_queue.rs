//! [`front_to_back`]: the elements of a `mo:core/pure/RealTimeQueue` in the order its own
//! `values` gives them (popping the front), read from its state without replaying it.
//!
//! The queue is `#empty`, `#one x`, `#two (x, y)`, `#three (x, y, z)` (front first),
//! `#idles (front, back)` or `#rebal (direction, big, small)`. An idle end is
//! `((left, right), size)`: its first `size` elements of `left` then `right`, the end's
//! outermost element first. While rebalancing (`#rebal`), each end's contents are fixed by
//! its `Current = (extra, extraSize, old, targetSize)` (pops and pushes update only it; the
//! copying steps only prepare the final stacks): the big end holds `extra` then the first
//! `targetSize` elements of `old`; the small end `extra` then the first `targetSize` of its
//! `old` followed by the big end's tail (its `old` past the big end's `targetSize`), reversed.
//! An end whose copying is done (`#idle (cur, idle)`) holds its idle stacks. The direction
//! says which end is the front: `#left`, the small one. The queue is the front end's
//! contents then the back end's, reversed.

use super::read::ReadParts;
use crate::heap::value::{DecodeError, Decoder, LazyValue};

/// Every element of the queue `queue`, front to back.
pub fn front_to_back(
    d: &mut Decoder<'_>,
    queue: &LazyValue,
) -> Result<Vec<LazyValue>, DecodeError> {
    let (tag, body) = d.variant(queue)?;
    Ok(match &*tag {
        "empty" => Vec::new(),
        "one" => vec![body],
        "two" | "three" => d.tuple(&body)?.1,
        "idles" => {
            let [front, back] = parts::<2>(d, &body)?;
            let (front, back) = (idle(d, &front)?, idle(d, &back)?);
            joined(front, back)
        }
        "rebal" => {
            let [direction, big, small] = parts::<3>(d, &body)?;
            let (direction, _) = d.variant(&direction)?;
            let big = end(d, &big)?;
            let small = end(d, &small)?;
            let tail = big
                .current
                .old
                .get(big.current.target..)
                .unwrap_or_default();
            let big_contents = big.contents(&[]);
            let small_contents = small.contents(tail);
            match &*direction {
                "left" => joined(small_contents, big_contents),
                _ => joined(big_contents, small_contents),
            }
        }
        _ => return Err(d.mismatch(queue.word, "a RealTimeQueue state")),
    })
}

/// The front end's contents, then the back end's reversed.
fn joined(mut front: Vec<LazyValue>, back: Vec<LazyValue>) -> Vec<LazyValue> {
    front.extend(back.into_iter().rev());
    front
}

/// Exactly `N` parts of the tuple `v`.
fn parts<const N: usize>(
    d: &mut Decoder<'_>,
    v: &LazyValue,
) -> Result<[LazyValue; N], DecodeError> {
    let (_, parts) = d.tuple(v)?;
    <[LazyValue; N]>::try_from(parts).map_err(|_| d.mismatch(v.word, "a RealTimeQueue part"))
}

/// The elements of a pure list `?(x, rest)`, first first (bounded by the decoder's work
/// budget: a cyclic list ends in a limit error).
fn list(d: &mut Decoder<'_>, l: &LazyValue) -> Result<Vec<LazyValue>, DecodeError> {
    let mut out = Vec::new();
    let mut cell = l.clone();
    while let Some(c) = d.opt(&cell)? {
        let [x, rest] = parts::<2>(d, &c)?;
        out.push(x);
        cell = rest;
    }
    Ok(out)
}

/// A `(left, right)` pair of stacks: `left`'s elements, then `right`'s.
fn stacks(d: &mut Decoder<'_>, s: &LazyValue) -> Result<Vec<LazyValue>, DecodeError> {
    let [left, right] = parts::<2>(d, s)?;
    let mut out = list(d, &left)?;
    out.extend(list(d, &right)?);
    Ok(out)
}

/// A count, as an index.
fn count(d: &mut Decoder<'_>, v: &LazyValue) -> Result<usize, DecodeError> {
    Ok(usize::try_from(d.nat(v)?).unwrap_or(usize::MAX))
}

/// The first `n` of `xs` (all of them if there are fewer).
fn first(mut xs: Vec<LazyValue>, n: usize) -> Vec<LazyValue> {
    xs.truncate(n);
    xs
}

/// An idle end `(stacks, size)`: its first `size` elements.
fn idle(d: &mut Decoder<'_>, v: &LazyValue) -> Result<Vec<LazyValue>, DecodeError> {
    let [s, size] = parts::<2>(d, v)?;
    let size = count(d, &size)?;
    Ok(first(stacks(d, &s)?, size))
}

/// A rebalancing end's `Current`: pushed `extra`, the `old` stacks, the `target` size.
struct Current {
    extra: Vec<LazyValue>,
    old: Vec<LazyValue>,
    target: usize,
}

fn current(d: &mut Decoder<'_>, v: &LazyValue) -> Result<Current, DecodeError> {
    let [extra, _, old, target] = parts::<4>(d, v)?;
    Ok(Current {
        extra: list(d, &extra)?,
        old: stacks(d, &old)?,
        target: count(d, &target)?,
    })
}

/// One end while rebalancing: its `Current`, and its idle stacks once copying is done.
struct End {
    current: Current,
    idle: Option<Vec<LazyValue>>,
}

impl End {
    /// The end's elements, outermost first; `tail`: what it takes over from the other end.
    fn contents(&self, tail: &[LazyValue]) -> Vec<LazyValue> {
        if let Some(idle) = &self.idle {
            return idle.clone();
        }
        let own = self.current.old.iter().chain(tail.iter().rev());
        let mut out = self.current.extra.clone();
        out.extend(own.take(self.current.target).cloned());
        out
    }
}

/// A `BigState` (`#big1 (cur, …)`, `#big2 common`) or `SmallState` (`#small1 (cur, …)`,
/// `#small2 (cur, …)`, `#small3 common`), where `common` is `#copy (cur, …)` or
/// `#idle (cur, idle)`.
fn end(d: &mut Decoder<'_>, v: &LazyValue) -> Result<End, DecodeError> {
    let (tag, body) = d.variant(v)?;
    match &*tag {
        "big1" | "small1" | "small2" => {
            let (_, parts) = d.tuple(&body)?;
            let cur = parts
                .first()
                .ok_or_else(|| d.mismatch(body.word, "a rebalancing state"))?;
            Ok(End {
                current: current(d, cur)?,
                idle: None,
            })
        }
        "big2" | "small3" => {
            let (tag, common) = d.variant(&body)?;
            let (_, parts) = d.tuple(&common)?;
            let [cur, rest @ ..] = &parts[..] else {
                return Err(d.mismatch(common.word, "a copying state"));
            };
            let idle = match (&*tag, rest) {
                ("idle", [i]) => Some(idle(d, i)?),
                ("copy", [_, _, _]) => None,
                _ => return Err(d.mismatch(common.word, "a copying state")),
            };
            Ok(End {
                current: current(d, cur)?,
                idle,
            })
        }
        _ => Err(d.mismatch(v.word, "a rebalancing state")),
    }
}
