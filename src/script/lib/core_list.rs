//! Indexed reads of a `mo:core` `List` held by the canister
//! (`{ var blocks : [var [var ?T]]; var blockIndex : Nat; var elementIndex : Nat }`):
//! elements fill the data blocks `blocks[1..blockIndex]` and the first `elementIndex` slots
//! of `blocks[blockIndex]`, so the size and the element at an index come from the block
//! sizes (about `sqrt(2n)` blocks), without reading the elements.

use super::view;
use crate::script::eval::{EResult, Interp};
use crate::script::value::Value;

/// A core `List` record's blocks and fill indices.
struct Blocks {
    blocks: Value,
    /// `blocks.size()`.
    count: u64,
    block_index: u64,
    element_index: u64,
}

/// The blocks of `v`, or `None` if `v` is not a core `List` record with its indices.
fn blocks(it: &mut Interp, v: &Value) -> EResult<Option<Blocks>> {
    let Some(blocks) = view::field(it, v, "blocks")? else {
        return Ok(None);
    };
    let (Some(Value::Nat(block_index)), Some(Value::Nat(element_index))) = (
        view::field(it, v, "blockIndex")?,
        view::field(it, v, "elementIndex")?,
    ) else {
        return Ok(None);
    };
    let Some(count) = view::len(it, &blocks)? else {
        return Ok(None);
    };
    if block_index >= count {
        return Ok(None);
    }
    Ok(Some(Blocks {
        blocks,
        count,
        block_index,
        element_index,
    }))
}

/// The size of block `b` (0 for a missing one).
fn block_len(it: &mut Interp, l: &Blocks, b: u64) -> EResult<(Option<Value>, u64)> {
    if b >= l.count {
        return Ok((None, 0));
    }
    let block = view::part(it, &l.blocks, b)?;
    let len = match &block {
        Some(block) => view::len(it, block)?.unwrap_or(0),
        None => 0,
    };
    Ok((block, len))
}

/// The number of elements of a core `List` record, or `None` if `v` is not one.
pub(super) fn size(it: &mut Interp, v: &Value) -> EResult<Option<u64>> {
    let Some(l) = blocks(it, v)? else {
        return Ok(None);
    };
    let mut n = l.element_index;
    for b in 0..l.block_index {
        n = n.saturating_add(block_len(it, &l, b)?.1);
    }
    Ok(Some(n))
}

/// Element `i` of a core `List` record: `Some(Some(x))`, `Some(None)` past the end, or
/// `None` if `v` is not a core `List` whose slot there is filled (the caller then reads
/// every element).
pub(super) fn element(it: &mut Interp, v: &Value, mut i: u64) -> EResult<Option<Option<Value>>> {
    let Some(l) = blocks(it, v)? else {
        return Ok(None);
    };
    for b in 0..=l.block_index {
        let (block, len) = block_len(it, &l, b)?;
        let len = if b == l.block_index {
            l.element_index.min(len)
        } else {
            len
        };
        if i >= len {
            i -= len;
            continue;
        }
        let Some(block) = block else { return Ok(None) };
        return match view::part(it, &block, i)? {
            Some(slot) => match view::option(it, &slot)? {
                Some(Some(x)) => Ok(Some(Some(x))),
                _ => Ok(None),
            },
            None => Ok(None),
        };
    }
    Ok(Some(None))
}
