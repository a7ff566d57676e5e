//! Indexed reads of a `mo:core` `List` held by the canister (or built by a script)
//! (`{ var blocks : [var [var ?T]]; var blockIndex : Nat; var elementIndex : Nat }`):
//! elements fill the data blocks `blocks[1..blockIndex]` and the first `elementIndex` slots
//! of `blocks[blockIndex]`, so the size and the element at an index come from the block
//! sizes (about `sqrt(2n)` blocks), without reading the elements.

use super::view;
use crate::script::eval::{EResult, Interp};
use crate::script::value::{NativeIter, Value};

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

/// The elements of a core `List` record read one slot at a time, block by block (every
/// filled slot, as [`super::list::list_items`] reads them): only the current block's
/// handle is held, so iterating a list of any size keeps memory bounded.
pub(super) struct Elements {
    blocks: Value,
    count: u64,
    /// The current block, its length and the next slot in it.
    block: Option<(Value, u64)>,
    next_block: u64,
    next_slot: u64,
}

/// The element stream of `v`, or `None` if `v` has no `blocks` array.
pub(super) fn stream(it: &mut Interp, v: &Value) -> EResult<Option<Elements>> {
    let Some(blocks) = view::field(it, v, "blocks")? else {
        return Ok(None);
    };
    let Some(count) = view::len(it, &blocks)? else {
        return Ok(None);
    };
    Ok(Some(Elements {
        blocks,
        count,
        block: None,
        next_block: 0,
        next_slot: 0,
    }))
}

impl NativeIter for Elements {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        loop {
            if let Some((block, len)) = &self.block {
                if self.next_slot < *len {
                    let slot = view::part(it, block, self.next_slot)?;
                    self.next_slot += 1;
                    if let Some(slot) = slot {
                        if let Some(Some(x)) = view::option(it, &slot)? {
                            it.alloc(16)?;
                            return Ok(Some(x));
                        }
                    }
                    continue;
                }
            }
            if self.next_block >= self.count {
                return Ok(None);
            }
            let block = view::part(it, &self.blocks, self.next_block)?;
            self.next_block += 1;
            self.next_slot = 0;
            self.block = match block {
                Some(block) => {
                    let len = view::len(it, &block)?.unwrap_or(0);
                    Some((block, len))
                }
                None => None,
            };
        }
    }
}
