//! `mo:core/List`: growable lists built by scripts, and read access to the core lists a
//! canister holds, through the same functions.
//!
//! A script's list is core's own record (`{ var blocks : [var [var ?T]]; var blockIndex;
//! var elementIndex }`: data blocks of sizes 1, 1, 2, 2, 2, 4, ... after an always-empty
//! block 0), grown and shrunk by core's algorithms (`add`, `removeLast`, `locate`, the index
//! block's growth and shrinking, `repeat`, `truncate`, ...), so `debug_show` of it prints
//! what moc prints and `let b = a; List.add(a, x)` is seen through `b`. The functions that
//! only read work on a list the canister holds too, through [`view`] (one block at a time).

use super::args::{arg, bool_of, elems, usize_arg, wrong};
use super::btree::{order, order_value};
use super::btree_mut::var_field;
use super::collections::sort_by_compare;
use super::iters::{iter_value, VecIter};
use super::{core_list, view, Builtin, Module};
use crate::script::eval::{trap, EResult, Interp};
use crate::script::value::{num, BoundBuiltin, NativeIter, Record, Value};
use std::cell::RefCell;
use std::cmp::Ordering;
use std::rc::Rc;

type R = EResult;
type Arr = Rc<RefCell<Vec<Value>>>;

// ---- core's index arithmetic (`locate`, `dataBlockSize`, `newIndexBlockLength`) ----

fn nat32(n: usize) -> EResult<u32> {
    u32::try_from(n).map_err(|_| trap("List: more than 2^32 elements"))
}

/// `locate(index)`: the data block and slot of element `index`.
fn locate(index: usize) -> EResult<(usize, usize)> {
    let i = nat32(index)?;
    let lz = i.leading_zeros();
    let lz2 = lz >> 1;
    Ok(if lz & 1 == 0 {
        (
            (((i.wrapping_shl(lz2)) >> 16) ^ (0x10000 >> lz2)) as usize,
            (i & (0xFFFF >> lz2)) as usize,
        )
    } else {
        (
            (((i.wrapping_shl(lz2)) >> 15) ^ (0x18000 >> lz2)) as usize,
            (i & (0x7FFF >> lz2)) as usize,
        )
    })
}

/// `indexByBlockElement(b, e)` (and `size` at `(blockIndex, elementIndex)`).
fn index_of(b: usize, e: usize) -> EResult<usize> {
    let d = nat32(b)?;
    let lz = (d / 3).leading_zeros();
    let x = d
        .wrapping_sub(1u32.rotate_right(lz))
        .rotate_right(lz)
        .wrapping_add(nat32(e)?);
    Ok(x as usize)
}

/// `dataBlockSize(b)`: the capacity of data block `b` (1 for blocks 1 and 2).
fn data_block_size(b: usize) -> EResult<usize> {
    let d = nat32(b)?;
    Ok(1u32.rotate_right((d / 3).leading_zeros()) as usize)
}

/// `newIndexBlockLength(b)`: the length of the index block that holds block `b`.
fn new_index_block_length(b: usize) -> EResult<usize> {
    let b = nat32(b)?;
    if b <= 1 {
        return Ok(2);
    }
    let s = 30 - b.leading_zeros();
    Ok(((b >> s).wrapping_add(1)).wrapping_shl(s) as usize)
}

/// The index block length for a list of `(bi, ei)`: `newIndexBlockLength(ei == 0 ? bi - 1 : bi)`.
fn blocks_for(bi: usize, ei: usize) -> EResult<usize> {
    new_index_block_length(if ei == 0 { bi.saturating_sub(1) } else { bi })
}

// ---- values ----

fn var_array(v: Vec<Value>) -> Value {
    Value::VarArray(Rc::new(RefCell::new(v)))
}

fn empty_block() -> Value {
    var_array(Vec::new())
}

/// A list record of `blocks` and the fill position.
fn list_record(blocks: Vec<Value>, bi: usize, ei: usize) -> Value {
    Value::record(vec![
        (Rc::from("blocks"), true, var_array(blocks)),
        (Rc::from("blockIndex"), true, Value::Nat(bi as u64)),
        (Rc::from("elementIndex"), true, Value::Nat(ei as u64)),
    ])
}

/// `List.empty()`.
pub(super) fn empty() -> Value {
    list_record(vec![empty_block()], 1, 0)
}

/// A script list holding `items` (laid out as `List.fromArray` lays them out).
pub(super) fn native_list_of(items: Vec<Value>) -> Value {
    from_slice(&items).unwrap_or_else(|_| empty())
}

fn slot_of(x: Option<&Value>) -> Value {
    x.map_or(Value::Null, |x| Value::some(x.clone()))
}

/// `List.fromArray`'s layout for `xs`.
fn from_slice(xs: &[Value]) -> EResult<Value> {
    let (bi, ei) = locate(xs.len())?;
    let count = blocks_for(bi, ei)?;
    let mut blocks = vec![empty_block(); count];
    let mut pos = 0;
    for (i, b) in blocks.iter_mut().enumerate().take(bi).skip(1) {
        let len = data_block_size(i)?;
        *b = var_array((0..len).map(|j| slot_of(xs.get(pos + j))).collect());
        pos += len;
    }
    if ei != 0 && bi < count {
        let len = data_block_size(bi)?;
        blocks[bi] = var_array(
            (0..len)
                .map(|j| {
                    if j < ei {
                        slot_of(xs.get(pos + j))
                    } else {
                        Value::Null
                    }
                })
                .collect(),
        );
    }
    Ok(list_record(blocks, bi, ei))
}

fn opt(v: Option<Value>) -> Value {
    v.map_or(Value::Null, Value::some)
}

// ---- reading (a script's list or the canister's) ----

/// A list's block index and fill position, read through [`view`].
struct Layout {
    blocks: Value,
    count: usize,
    bi: usize,
    ei: usize,
}

fn nat_of(v: Option<Value>) -> Option<usize> {
    match v {
        Some(Value::Nat(n)) => usize::try_from(n).ok(),
        _ => None,
    }
}

fn layout(it: &mut Interp, l: &Value, who: &str) -> EResult<Layout> {
    let blocks = view::field(it, l, "blocks")?.ok_or_else(|| wrong(who, "List", l))?;
    let bi = nat_of(view::field(it, l, "blockIndex")?).ok_or_else(|| wrong(who, "List", l))?;
    let ei = nat_of(view::field(it, l, "elementIndex")?).ok_or_else(|| wrong(who, "List", l))?;
    let count = view::len(it, &blocks)?.unwrap_or(0) as usize;
    Ok(Layout {
        blocks,
        count,
        bi,
        ei,
    })
}

impl Layout {
    /// Data block `i` (a trap past the index block, as moc's array access).
    fn block(&self, it: &mut Interp, i: usize) -> EResult<Value> {
        view::part(it, &self.blocks, i as u64)?.ok_or_else(|| trap("index out of bounds"))
    }

    /// The number of elements (core's `size`).
    fn size(&self) -> EResult<usize> {
        index_of(self.bi, self.ei)
    }
}

fn block_len(it: &mut Interp, b: &Value) -> EResult<usize> {
    Ok(view::len(it, b)?.unwrap_or(0) as usize)
}

/// Slot `j` of a block: `Some(x)` for `?x`, `None` for `null` (a trap past the block).
fn slot(it: &mut Interp, b: &Value, j: usize) -> EResult<Option<Value>> {
    let s = view::part(it, b, j as u64)?.ok_or_else(|| trap("index out of bounds"))?;
    Ok(view::option(it, &s)?.flatten())
}

/// The number of elements of a list value: a script's from its indices, the canister's
/// from its block sizes.
fn list_len(it: &mut Interp, l: &Value) -> EResult<usize> {
    if !matches!(l, Value::Record(_)) {
        if let Some(n) = core_list::size(it, l)? {
            return Ok(n as usize);
        }
    }
    layout(it, l, "List")?.size()
}

/// Elements of a list value (a script's or the canister's), in order.
pub(super) fn list_items(it: &mut Interp, v: &Value) -> EResult<Vec<Value>> {
    let mut s = core_list::stream(it, v)?.ok_or_else(|| wrong("List", "List", v))?;
    let mut out = Vec::new();
    while let Some(x) = s.next(it)? {
        out.push(x);
    }
    Ok(out)
}

/// The element at `index` (`List.get`): `locate`, then the slot if it is within the list.
fn get(it: &mut Interp, l: &Value, index: usize) -> EResult<Option<Value>> {
    if !matches!(l, Value::Record(_)) {
        if let Some(found) = core_list::element(it, l, index as u64)? {
            return Ok(found);
        }
    }
    let lay = layout(it, l, "List.get")?;
    let (a, b) = locate(index)?;
    if a < lay.bi || lay.ei != 0 && a == lay.bi {
        let block = lay.block(it, a)?;
        slot(it, &block, b)
    } else {
        Ok(None)
    }
}

/// `List.at`: the element at `index`, a trap past the end.
fn at(it: &mut Interp, l: &Value, index: usize) -> EResult<Value> {
    get(it, l, index)?.ok_or_else(|| trap("List index out of bounds in get"))
}

/// Feeds the elements from `start` to `f`, in order, until it answers `false` (core's
/// block-by-block walks, which stop at the first empty slot).
fn each_from(
    it: &mut Interp,
    l: &Value,
    start: usize,
    who: &str,
    mut f: impl FnMut(&mut Interp, usize, Value) -> EResult<bool>,
) -> EResult<()> {
    let lay = layout(it, l, who)?;
    let (mut i, mut j) = locate(start)?;
    let mut index = start;
    while i < lay.count {
        let db = lay.block(it, i)?;
        let sz = block_len(it, &db)?;
        if sz == 0 {
            return Ok(());
        }
        while j < sz {
            it.tick()?;
            let Some(x) = slot(it, &db, j)? else {
                return Ok(());
            };
            if !f(it, index, x)? {
                return Ok(());
            }
            j += 1;
            index += 1;
        }
        i += 1;
        j = 0;
    }
    Ok(())
}

/// Feeds the elements before `end` to `f`, last first, until it answers `false`.
fn each_back(
    it: &mut Interp,
    l: &Value,
    end: usize,
    who: &str,
    mut f: impl FnMut(&mut Interp, usize, Value) -> EResult<bool>,
) -> EResult<()> {
    let lay = layout(it, l, who)?;
    let (bi, ei) = locate(end)?;
    let mut i = if ei == 0 { bi.saturating_sub(1) } else { bi };
    let mut index = end;
    while i > 0 {
        let db = lay.block(it, i)?;
        let mut j = if i == bi { ei } else { block_len(it, &db)? };
        while j > 0 {
            j -= 1;
            it.tick()?;
            let x = slot(it, &db, j)?.ok_or_else(|| trap("List: internal error"))?;
            index -= 1;
            if !f(it, index, x)? {
                return Ok(());
            }
        }
        i -= 1;
    }
    Ok(())
}

// ---- changing a script's list ----

/// A list record the script built, changed in place.
struct Mut {
    rec: Rc<Record>,
}

fn changeable(l: &Value, who: &str) -> EResult<Mut> {
    match l {
        // the canister's lists, decoded, have no `var` fields: a snapshot is read-only
        Value::Record(r)
            if var_field(r, "blocks")
                && var_field(r, "blockIndex")
                && var_field(r, "elementIndex") =>
        {
            Ok(Mut { rec: r.clone() })
        }
        _ => Err(trap(format!(
            "{who}: only lists created by the script can change"
        ))),
    }
}

fn arr_of(v: &Value) -> EResult<Arr> {
    match v {
        Value::VarArray(a) => Ok(a.clone()),
        other => Err(wrong("List", "block", other)),
    }
}

fn aget(a: &Arr, i: usize) -> EResult<Value> {
    a.borrow()
        .get(i)
        .cloned()
        .ok_or_else(|| trap("index out of bounds"))
}

fn aset(a: &Arr, i: usize, v: Value) -> EResult<()> {
    match a.borrow_mut().get_mut(i) {
        Some(s) => {
            *s = v;
            Ok(())
        }
        None => Err(trap("index out of bounds")),
    }
}

fn alen(a: &Arr) -> usize {
    a.borrow().len()
}

impl Mut {
    fn field(&self, name: &str) -> Value {
        self.rec.get(name).map(|f| f.get()).unwrap_or_default()
    }

    fn set(&self, name: &str, v: Value) {
        if let Some(f) = self.rec.get(name) {
            f.set(v);
        }
    }

    fn blocks(&self) -> EResult<Arr> {
        arr_of(&self.field("blocks"))
    }

    fn set_blocks(&self, blocks: Vec<Value>) {
        self.set("blocks", var_array(blocks));
    }

    fn bi(&self) -> EResult<usize> {
        nat_of(Some(self.field("blockIndex"))).ok_or_else(|| trap("List: bad blockIndex"))
    }

    fn ei(&self) -> EResult<usize> {
        nat_of(Some(self.field("elementIndex"))).ok_or_else(|| trap("List: bad elementIndex"))
    }

    fn set_bi(&self, n: usize) {
        self.set("blockIndex", Value::Nat(n as u64));
    }

    fn set_ei(&self, n: usize) {
        self.set("elementIndex", Value::Nat(n as u64));
    }

    fn size(&self) -> EResult<usize> {
        index_of(self.bi()?, self.ei()?)
    }

    /// Block `i` of the index block.
    fn block(&self, i: usize) -> EResult<Arr> {
        arr_of(&aget(&self.blocks()?, i)?)
    }

    /// `growIndexBlockIfNeeded`.
    fn grow(&self, it: &mut Interp) -> EResult<()> {
        let blocks = self.blocks()?;
        let bi = self.bi()?;
        if alen(&blocks) == bi {
            let n = new_index_block_length(bi)?;
            it.alloc(16 * n as u64)?;
            let mut new = vec![empty_block(); n];
            for (i, b) in new.iter_mut().enumerate().take(bi) {
                *b = aget(&blocks, i)?;
            }
            self.set_blocks(new);
        }
        Ok(())
    }

    /// `shrinkIndexBlockIfNeeded`.
    fn shrink(&self) -> EResult<()> {
        let bi = nat32(self.bi()?)?;
        if bi.wrapping_shl(bi.leading_zeros()).wrapping_shl(2) == 0 {
            let n = new_index_block_length(bi as usize)?;
            let blocks = self.blocks()?;
            if n < alen(&blocks) {
                let new = (0..n)
                    .map(|i| aget(&blocks, i))
                    .collect::<EResult<Vec<_>>>()?;
                self.set_blocks(new);
            }
        }
        Ok(())
    }

    /// `List.add`.
    fn add(&self, it: &mut Interp, x: Value) -> EResult<()> {
        let mut ei = self.ei()?;
        if ei == 0 {
            self.grow(it)?;
            let bi = self.bi()?;
            let blocks = self.blocks()?;
            if block_size_of(&aget(&blocks, bi)?) == 0 {
                let n = data_block_size(bi)?;
                it.alloc(16 * n as u64)?;
                aset(&blocks, bi, var_array(vec![Value::Null; n]))?;
            }
        }
        let last = self.block(self.bi()?)?;
        aset(&last, ei, Value::some(x))?;
        ei += 1;
        if ei == alen(&last) {
            ei = 0;
            self.set_bi(self.bi()? + 1);
        }
        self.set_ei(ei);
        Ok(())
    }

    /// `addUnsafe`: adds into room already made (`reserve`).
    fn add_unsafe(&self, x: Value) -> EResult<()> {
        let mut ei = self.ei()?;
        let last = self.block(self.bi()?)?;
        aset(&last, ei, Value::some(x))?;
        ei += 1;
        if ei == alen(&last) {
            ei = 0;
            self.set_bi(self.bi()? + 1);
        }
        self.set_ei(ei);
        Ok(())
    }

    /// `List.removeLast`.
    fn remove_last(&self) -> EResult<Option<Value>> {
        let mut ei = self.ei()?;
        if ei == 0 {
            let mut bi = self.bi()?;
            if bi == 1 {
                return Ok(None);
            }
            self.shrink()?;
            bi -= 1;
            let blocks = self.blocks()?;
            ei = block_size_of(&aget(&blocks, bi)?);
            if bi + 2 < alen(&blocks) {
                aset(&blocks, bi + 2, empty_block())?;
            }
            self.set_bi(bi);
        }
        ei = ei
            .checked_sub(1)
            .ok_or_else(|| trap("List: internal error"))?;
        let last = self.block(self.bi()?)?;
        let x = aget(&last, ei)?;
        aset(&last, ei, Value::Null)?;
        self.set_ei(ei);
        Ok(match x {
            Value::Opt(x) => Some((*x).clone()),
            _ => None,
        })
    }

    /// `addRepeatInternal`: `count` slots of `init` (`null` only reserves room).
    fn add_repeat(&self, it: &mut Interp, init: Value, count: usize) -> EResult<()> {
        let total = self
            .size()?
            .checked_add(count)
            .ok_or_else(|| trap("List: more than 2^32 elements"))?;
        let (b, e) = locate(total)?;
        let blocks_count = blocks_for(b, e)?;
        let old = self.blocks()?;
        if alen(&old) < blocks_count {
            it.alloc(16 * blocks_count as u64)?;
            let mut new = vec![empty_block(); blocks_count];
            for (i, x) in new.iter_mut().enumerate().take(alen(&old)) {
                *x = aget(&old, i)?;
            }
            self.set_blocks(new);
        }
        let blocks = self.blocks()?;
        let (mut bi, mut ei) = (self.bi()?, self.ei()?);
        let mut cnt = count;
        while cnt > 0 {
            it.tick()?;
            if block_size_of(&aget(&blocks, bi)?) == 0 {
                let dbs = data_block_size(bi)?;
                it.alloc(16 * dbs as u64)?;
                if cnt >= dbs {
                    aset(&blocks, bi, var_array(vec![init.clone(); dbs]))?;
                    bi += 1;
                    cnt -= dbs;
                    continue;
                }
                aset(&blocks, bi, var_array(vec![Value::Null; dbs]))?;
            }
            let block = arr_of(&aget(&blocks, bi)?)?;
            let dbs = alen(&block);
            let to = (ei + cnt).min(dbs);
            cnt -= to - ei;
            while ei < to {
                aset(&block, ei, init.clone())?;
                ei += 1;
            }
            if ei == dbs {
                ei = 0;
                bi += 1;
            }
        }
        self.set_bi(bi);
        self.set_ei(ei);
        Ok(())
    }

    /// `reserve`: room for `n` more elements.
    fn reserve(&self, it: &mut Interp, n: usize) -> EResult<()> {
        let (bi, ei) = (self.bi()?, self.ei()?);
        self.add_repeat(it, Value::Null, n)?;
        self.set_bi(bi);
        self.set_ei(ei);
        Ok(())
    }

    /// `List.truncate`.
    fn truncate(&self, new_size: usize) -> EResult<()> {
        if new_size > self.size()? {
            return Ok(());
        }
        let (bi, ei) = locate(new_size)?;
        self.set_bi(bi);
        self.set_ei(ei);
        let n = blocks_for(bi, ei)?;
        let old = self.blocks()?;
        if n < alen(&old) {
            let new = (0..n).map(|i| aget(&old, i)).collect::<EResult<Vec<_>>>()?;
            self.set_blocks(new);
        }
        let blocks = self.blocks()?;
        let mut i = if ei == 0 { bi } else { bi + 1 };
        while i < n {
            aset(&blocks, i, empty_block())?;
            i += 1;
        }
        if ei != 0 {
            let block = arr_of(&aget(&blocks, bi)?)?;
            for k in ei..alen(&block) {
                aset(&block, k, Value::Null)?;
            }
        }
        Ok(())
    }

    /// Calls `f` on each filled slot in order, block by block from block 1, until a slot
    /// or block is empty (core's in-place walks); `f` may replace the slot.
    fn walk_slots(
        &self,
        it: &mut Interp,
        mut f: impl FnMut(&mut Interp, &Arr, usize, Value) -> EResult<()>,
    ) -> EResult<()> {
        let blocks = self.blocks()?;
        for i in 1..alen(&blocks) {
            let db = arr_of(&aget(&blocks, i)?)?;
            let sz = alen(&db);
            if sz == 0 {
                return Ok(());
            }
            for j in 0..sz {
                it.tick()?;
                match aget(&db, j)? {
                    Value::Opt(x) => f(it, &db, j, (*x).clone())?,
                    _ => return Ok(()),
                }
            }
        }
        Ok(())
    }
}

fn block_size_of(v: &Value) -> usize {
    match v {
        Value::VarArray(a) => a.borrow().len(),
        _ => 0,
    }
}

/// `repeatInternal(init, size)`: a list of `size` slots of `init` (`null`: room only).
fn repeat_internal(it: &mut Interp, init: Value, size: usize) -> EResult<Value> {
    let (bi, ei) = locate(size)?;
    let count = blocks_for(bi, ei)?;
    it.alloc(16 * (count + size) as u64)?;
    let mut blocks = vec![empty_block(); count];
    for (i, b) in blocks.iter_mut().enumerate().take(bi).skip(1) {
        *b = var_array(vec![init.clone(); data_block_size(i)?]);
    }
    if ei != 0 {
        let len = data_block_size(bi)?;
        blocks[bi] = var_array(
            (0..len)
                .map(|j| if j < ei { init.clone() } else { Value::Null })
                .collect(),
        );
    }
    Ok(list_record(blocks, bi, ei))
}

// ---- the module's functions ----

fn list_empty(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> R {
    Ok(empty())
}

fn list_singleton(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let x = arg(a, 0, "List.singleton")?.clone();
    Ok(list_record(
        vec![empty_block(), var_array(vec![Value::some(x)])],
        2,
        0,
    ))
}

fn list_repeat(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let x = arg(a, 0, "List.repeat")?.clone();
    let n = usize_arg(a, 1, "List.repeat")?;
    repeat_internal(it, Value::some(x), n)
}

fn list_fill(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let l = changeable(arg(a, 0, "List.fill")?, "List.fill")?;
    let v = Value::some(arg(a, 1, "List.fill")?.clone());
    let (bi, ei) = (l.bi()?, l.ei()?);
    let blocks = l.blocks()?;
    for i in 1..alen(&blocks) {
        let db = arr_of(&aget(&blocks, i)?)?;
        let sz = if i == bi { ei } else { alen(&db) };
        if sz == 0 {
            break;
        }
        it.ticks(sz as u64)?;
        for j in 0..sz {
            aset(&db, j, v.clone())?;
        }
    }
    Ok(Value::Unit)
}

fn list_add(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let l = changeable(arg(a, 0, "List.add")?, "List.add")?;
    l.add(it, arg(a, 1, "List.add")?.clone())?;
    Ok(Value::Unit)
}

fn list_add_repeat(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let l = changeable(arg(a, 0, "List.addRepeat")?, "List.addRepeat")?;
    let x = Value::some(arg(a, 1, "List.addRepeat")?.clone());
    l.add_repeat(it, x, usize_arg(a, 2, "List.addRepeat")?)?;
    Ok(Value::Unit)
}

fn list_truncate(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let l = changeable(arg(a, 0, "List.truncate")?, "List.truncate")?;
    l.truncate(usize_arg(a, 1, "List.truncate")?)?;
    Ok(Value::Unit)
}

fn list_clear(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let l = changeable(arg(a, 0, "List.clear")?, "List.clear")?;
    l.set_blocks(vec![empty_block()]);
    l.set_bi(1);
    l.set_ei(0);
    Ok(Value::Unit)
}

fn list_remove_last(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let l = changeable(arg(a, 0, "List.removeLast")?, "List.removeLast")?;
    Ok(opt(l.remove_last()?))
}

fn list_get(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let i = usize_arg(a, 1, "List.get")?;
    Ok(opt(get(it, arg(a, 0, "List.get")?, i)?))
}

fn list_at(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let i = usize_arg(a, 1, "List.at")?;
    at(it, arg(a, 0, "List.at")?, i)
}

fn list_put(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let l = changeable(arg(a, 0, "List.put")?, "List.put")?;
    let i = usize_arg(a, 1, "List.put")?;
    put(&l, i, arg(a, 2, "List.put")?.clone())?;
    Ok(Value::Unit)
}

/// `List.put`: replaces the element at `i` (a trap where there is none).
fn put(l: &Mut, i: usize, v: Value) -> EResult<()> {
    let (b, e) = locate(i)?;
    let block = l.block(b)?;
    match aget(&block, e)? {
        Value::Opt(_) => aset(&block, e, Value::some(v)),
        _ => Err(trap("List index out of bounds in put")),
    }
}

fn list_size(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Nat(list_len(it, arg(a, 0, "List.size")?)? as u64))
}

fn list_is_empty(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(list_len(it, arg(a, 0, "List.isEmpty")?)? == 0))
}

fn list_values(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let l = arg(a, 0, "List.values")?;
    match core_list::stream(it, l)? {
        Some(elements) => Ok(iter_value(elements)),
        None => Err(wrong("List.values", "List", l)),
    }
}

fn list_to_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let v = list_items(it, arg(a, 0, "List.toArray")?)?;
    it.alloc(16 * v.len() as u64)?;
    Ok(Value::Array(Rc::from(v)))
}

fn list_to_var_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let v = list_items(it, arg(a, 0, "List.toVarArray")?)?;
    it.alloc(16 * v.len() as u64)?;
    Ok(var_array(v))
}

fn list_from_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = elems(it, arg(a, 0, "List.fromArray")?, "List.fromArray")?;
    it.alloc(16 * xs.len() as u64)?;
    from_slice(&xs)
}

fn list_from_var_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = elems(it, arg(a, 0, "List.fromVarArray")?, "List.fromVarArray")?;
    it.alloc(16 * xs.len() as u64)?;
    from_slice(&xs)
}

/// A new list of what `next` yields, added one by one (`fromIter`, `filter`, ...).
fn list_from(it: &mut Interp, mut next: impl FnMut(&mut Interp) -> EResult<Option<Value>>) -> R {
    let out = empty();
    let l = changeable(&out, "List")?;
    while let Some(x) = next(it)? {
        it.tick()?;
        l.add(it, x)?;
    }
    Ok(out)
}

fn list_from_iter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let iter = arg(a, 0, "List.fromIter")?.clone();
    list_from(it, |it| it.iter_next(&iter))
}

fn list_to_list(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let iter = arg(a, 0, "List.toList")?.clone();
    list_from(it, |it| it.iter_next(&iter))
}

fn list_add_all(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let l = changeable(arg(a, 0, "List.addAll")?, "List.addAll")?;
    let iter = arg(a, 1, "List.addAll")?;
    while let Some(x) = it.iter_next(iter)? {
        it.tick()?;
        l.add(it, x)?;
    }
    Ok(Value::Unit)
}

/// `List.append(l, added)`: room for `added`, then its elements.
fn list_append(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let l = changeable(arg(a, 0, "List.append")?, "List.append")?;
    let added = arg(a, 1, "List.append")?;
    let n = list_len(it, added)?;
    l.reserve(it, n)?;
    // the elements first (`added` may be the list itself)
    for x in list_items(it, added)? {
        l.add_unsafe(x)?;
    }
    Ok(Value::Unit)
}

fn list_tabulate(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let size = usize_arg(a, 0, "List.tabulate")?;
    let gen = arg(a, 1, "List.tabulate")?;
    let (bi, ei) = locate(size)?;
    let count = blocks_for(bi, ei)?;
    it.alloc(16 * (count + size) as u64)?;
    let mut blocks = vec![empty_block(); count];
    let mut pos = 0;
    for (i, b) in blocks.iter_mut().enumerate().take(bi).skip(1) {
        let len = data_block_size(i)?;
        let mut block = Vec::with_capacity(len);
        for j in 0..len {
            block.push(Value::some(
                it.call_value(gen, &[Value::Nat((pos + j) as u64)])?,
            ));
        }
        *b = var_array(block);
        pos += len;
    }
    if ei != 0 && bi < count {
        let len = data_block_size(bi)?;
        let mut block = Vec::with_capacity(len);
        for j in 0..len {
            block.push(if j < ei {
                Value::some(it.call_value(gen, &[Value::Nat((pos + j) as u64)])?)
            } else {
                Value::Null
            });
        }
        blocks[bi] = var_array(block);
    }
    Ok(list_record(blocks, bi, ei))
}

/// `List.flatten(lists)`: room for all, then each element added.
fn list_flatten(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let lists = list_items(it, arg(a, 0, "List.flatten")?)?;
    let mut sz = 0;
    for l in &lists {
        sz += list_len(it, l)?;
    }
    let result = repeat_internal(it, Value::Null, sz)?;
    let r = changeable(&result, "List.flatten")?;
    r.set_bi(1);
    r.set_ei(0);
    for l in &lists {
        for x in list_items(it, l)? {
            r.add(it, x)?;
        }
    }
    Ok(result)
}

/// `List.join(iter)`: each list's elements, room made for each list first.
fn list_join(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let iter = arg(a, 0, "List.join")?;
    let result = empty();
    let r = changeable(&result, "List.join")?;
    while let Some(l) = it.iter_next(iter)? {
        let n = list_len(it, &l)?;
        r.reserve(it, n)?;
        for x in list_items(it, &l)? {
            r.add_unsafe(x)?;
        }
    }
    Ok(result)
}

/// The data blocks of `l` that `clone` and `map` copy: as many as the list needs, at most
/// as many as it has.
fn kept_blocks(it: &mut Interp, lay: &Layout) -> EResult<usize> {
    let _ = it;
    Ok(blocks_for(lay.bi, lay.ei)?.min(lay.count))
}

fn list_clone(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let lay = layout(it, arg(a, 0, "List.clone")?, "List.clone")?;
    let n = kept_blocks(it, &lay)?;
    let mut blocks = Vec::with_capacity(n);
    for i in 0..n {
        let b = lay.block(it, i)?;
        let parts = view::parts(it, &b)?;
        it.alloc(16 * parts.len() as u64)?;
        let mut copy = Vec::with_capacity(parts.len());
        for s in parts {
            copy.push(match view::option(it, &s)? {
                Some(Some(x)) => Value::some(x),
                _ => Value::Null,
            });
        }
        blocks.push(var_array(copy));
    }
    Ok(list_record(blocks, lay.bi, lay.ei))
}

/// `map` (`f(x)`), `mapEntries` (`f(x, index)`), `mapResult` (`f(x)` giving a `Result`):
/// new blocks of the same sizes, filled until the first empty slot.
fn map_blocks(it: &mut Interp, a: &[Value], who: &str, kind: MapKind) -> R {
    let lay = layout(it, arg(a, 0, who)?, who)?;
    let f = arg(a, 1, who)?.clone();
    let n = match kind {
        MapKind::Map => kept_blocks(it, &lay)?,
        _ => lay.count,
    };
    let mut blocks = vec![empty_block(); n];
    let mut index = 0u64;
    let mut error: Option<Value> = None;
    'blocks: for (i, out) in blocks.iter_mut().enumerate().skip(1) {
        let old = lay.block(it, i)?;
        let bs = block_len(it, &old)?;
        it.alloc(16 * bs as u64)?;
        let new = Rc::new(RefCell::new(vec![Value::Null; bs]));
        *out = Value::VarArray(new.clone());
        for j in 0..bs {
            it.tick()?;
            let Some(x) = slot(it, &old, j)? else {
                break 'blocks;
            };
            let y = match kind {
                MapKind::Map => Value::some(it.call_value(&f, &[x])?),
                MapKind::Entries => Value::some(it.call_value(&f, &[x, Value::Nat(index)])?),
                MapKind::Result => match it.call_value(&f, &[x])? {
                    Value::Variant(tv) if &*tv.0 == "ok" => Value::some(tv.1.clone()),
                    Value::Variant(tv) if &*tv.0 == "err" => {
                        if error.is_none() {
                            error = Some(tv.1.clone());
                        }
                        Value::Null
                    }
                    other => return Err(wrong(who, "Result", &other)),
                },
            };
            new.borrow_mut()[j] = y;
            index += 1;
        }
    }
    let list = list_record(blocks, lay.bi, lay.ei);
    Ok(match (kind, error) {
        (MapKind::Result, Some(e)) => Value::variant("err", e),
        (MapKind::Result, None) => Value::variant("ok", list),
        _ => list,
    })
}

#[derive(Clone, Copy)]
enum MapKind {
    Map,
    Entries,
    Result,
}

fn list_map(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    map_blocks(it, a, "List.map", MapKind::Map)
}

fn list_map_entries(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    map_blocks(it, a, "List.mapEntries", MapKind::Entries)
}

fn list_map_result(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    map_blocks(it, a, "List.mapResult", MapKind::Result)
}

fn list_map_in_place(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let l = changeable(arg(a, 0, "List.mapInPlace")?, "List.mapInPlace")?;
    let f = arg(a, 1, "List.mapInPlace")?.clone();
    l.walk_slots(it, |it, db, j, x| {
        let y = it.call_value(&f, &[x])?;
        aset(db, j, Value::some(y))
    })?;
    Ok(Value::Unit)
}

/// `filter` (`f` a predicate), `filterMap` (`f` gives an option), `flatMap` (`f` gives an
/// iterator): a new list, each element kept added in order.
fn select(it: &mut Interp, a: &[Value], who: &str, op: Select) -> R {
    let src = arg(a, 0, who)?.clone();
    let f = arg(a, 1, who)?.clone();
    let out = empty();
    let l = changeable(&out, who)?;
    each_from(it, &src, 0, who, |it, _, x| {
        let r = it.call_value(&f, std::slice::from_ref(&x))?;
        match op {
            Select::Filter => {
                if bool_of(&r, who)? {
                    l.add(it, x)?;
                }
            }
            Select::FilterMap => {
                if let Some(Some(y)) = view::option(it, &r)? {
                    l.add(it, y)?;
                }
            }
            Select::FlatMap => {
                while let Some(y) = it.iter_next(&r)? {
                    it.tick()?;
                    l.add(it, y)?;
                }
            }
        }
        Ok(true)
    })?;
    Ok(out)
}

#[derive(Clone, Copy)]
enum Select {
    Filter,
    FilterMap,
    FlatMap,
}

fn list_filter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    select(it, a, "List.filter", Select::Filter)
}

fn list_filter_map(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    select(it, a, "List.filterMap", Select::FilterMap)
}

fn list_flat_map(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    select(it, a, "List.flatMap", Select::FlatMap)
}

/// `List.retain(l, predicate)`: the kept elements moved to the front in place, the rest
/// cut off (`truncate`).
fn list_retain(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let l = changeable(arg(a, 0, "List.retain")?, "List.retain")?;
    let pred = arg(a, 1, "List.retain")?.clone();
    l.set_bi(1);
    l.set_ei(0);
    l.walk_slots(it, |it, _, _, x| {
        if bool_of(
            &it.call_value(&pred, std::slice::from_ref(&x))?,
            "List.retain",
        )? {
            l.add_unsafe(x)?;
        }
        Ok(())
    })?;
    l.truncate(l.size()?)?;
    Ok(Value::Unit)
}

/// `List.deduplicate(l, equal)`: runs of equal neighbours kept once, in place.
fn list_deduplicate(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let lv = arg(a, 0, "List.deduplicate")?;
    let l = changeable(lv, "List.deduplicate")?;
    let eq = arg(a, 1, "List.deduplicate")?.clone();
    let Some(first) = get(it, lv, 0)? else {
        return Ok(Value::Unit);
    };
    l.set_bi(1);
    l.set_ei(0);
    l.add_unsafe(first.clone())?;
    let mut prev = first;
    let blocks = l.blocks()?;
    'blocks: for i in 2..alen(&blocks) {
        let db = arr_of(&aget(&blocks, i)?)?;
        let sz = alen(&db);
        if sz == 0 {
            break;
        }
        for j in 0..sz {
            it.tick()?;
            let Value::Opt(x) = aget(&db, j)? else {
                break 'blocks;
            };
            let x = (*x).clone();
            let same = bool_of(
                &it.call_value(&eq, &[x.clone(), prev.clone()])?,
                "List.deduplicate",
            )?;
            if !same {
                l.add_unsafe(x.clone())?;
            }
            prev = x;
        }
    }
    l.truncate(l.size()?)?;
    Ok(Value::Unit)
}

/// `sortInPlace(l, compare)`: the elements sorted (stably), written back slot by slot.
fn list_sort_in_place(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let lv = arg(a, 0, "List.sortInPlace")?;
    let l = changeable(lv, "List.sortInPlace")?;
    if l.size()? < 2 {
        return Ok(Value::Unit);
    }
    let items = list_items(it, lv)?;
    let sorted = sort_by_compare(
        it,
        items,
        arg(a, 1, "List.sortInPlace")?,
        "List.sortInPlace",
    )?;
    let mut next = sorted.into_iter();
    l.walk_slots(it, |_, db, j, _| match next.next() {
        Some(x) => aset(db, j, Value::some(x)),
        None => Ok(()),
    })?;
    Ok(Value::Unit)
}

fn list_sort(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = list_items(it, arg(a, 0, "List.sort")?)?;
    let sorted = sort_by_compare(it, items, arg(a, 1, "List.sort")?, "List.sort")?;
    from_slice(&sorted)
}

fn list_is_sorted(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "List.isSorted";
    let compare = arg(a, 1, who)?.clone();
    let mut prev: Option<Value> = None;
    let mut sorted = true;
    each_from(it, arg(a, 0, who)?, 0, who, |it, _, x| {
        if let Some(p) = &prev {
            if order(it, who, &compare, &x, p)? == Ordering::Less {
                sorted = false;
                return Ok(false);
            }
        }
        prev = Some(x);
        Ok(true)
    })?;
    Ok(Value::Bool(sorted))
}

/// The first index from `start` (or, `back`, the last before `start`) whose element `test`
/// holds for.
fn search(
    it: &mut Interp,
    l: &Value,
    start: usize,
    back: bool,
    who: &str,
    mut test: impl FnMut(&mut Interp, &Value) -> EResult<bool>,
) -> EResult<Option<usize>> {
    let mut found = None;
    let mut f = |it: &mut Interp, i: usize, x: Value| {
        if test(it, &x)? {
            found = Some(i);
            return Ok(false);
        }
        Ok(true)
    };
    if back {
        each_back(it, l, start, who, &mut f)?;
    } else {
        each_from(it, l, start, who, &mut f)?;
    }
    Ok(found)
}

fn index_value(i: Option<usize>) -> Value {
    opt(i.map(|i| Value::Nat(i as u64)))
}

/// `nextIndexOf(l, equal, x, fromInclusive)`.
fn list_next_index_of(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "List.nextIndexOf";
    let l = arg(a, 0, who)?;
    let (eq, x) = (arg(a, 1, who)?.clone(), arg(a, 2, who)?.clone());
    let from = usize_arg(a, 3, who)?;
    if from >= list_len(it, l)? {
        return Err(trap("List index out of bounds in nextIndexOf"));
    }
    let i = search(it, l, from, false, who, |it, y| {
        bool_of(&it.call_value(&eq, &[y.clone(), x.clone()])?, who)
    })?;
    Ok(index_value(i))
}

/// `prevIndexOf(l, equal, x, fromExclusive)` (`lastIndexOf`: from the end).
fn prev_index_of(it: &mut Interp, a: &[Value], who: &str, from: Option<usize>) -> R {
    let l = arg(a, 0, who)?;
    let (eq, x) = (arg(a, 1, who)?.clone(), arg(a, 2, who)?.clone());
    let size = list_len(it, l)?;
    let from = from.unwrap_or(size);
    if from > size {
        return Err(trap("List index out of bounds in prevIndexOf"));
    }
    let i = search(it, l, from, true, who, |it, y| {
        bool_of(&it.call_value(&eq, &[y.clone(), x.clone()])?, who)
    })?;
    Ok(index_value(i))
}

fn list_prev_index_of(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let from = usize_arg(a, 3, "List.prevIndexOf")?;
    prev_index_of(it, a, "List.prevIndexOf", Some(from))
}

fn list_last_index_of(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    prev_index_of(it, a, "List.lastIndexOf", None)
}

fn list_find_last_index(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "List.findLastIndex";
    let l = arg(a, 0, who)?;
    let pred = arg(a, 1, who)?.clone();
    let end = list_len(it, l)?;
    let i = search(it, l, end, true, who, |it, x| {
        bool_of(&it.call_value(&pred, std::slice::from_ref(x))?, who)
    })?;
    Ok(index_value(i))
}

/// `List.binarySearch(l, compare, x)`: mo:core's search (by epochs of blocks, then within a
/// block), `#found(i)` or `#insertionIndex(i)`.
fn list_binary_search(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "List.binarySearch";
    let l = arg(a, 0, who)?;
    let (compare, x) = (arg(a, 1, who)?.clone(), arg(a, 2, who)?.clone());
    let lay = layout(it, l, who)?;
    let found = |i: usize| -> EResult<Value> { Ok(Value::variant("found", Value::Nat(i as u64))) };
    let insert =
        |i: usize| -> EResult<Value> { Ok(Value::variant("insertionIndex", Value::Nat(i as u64))) };
    let b = lay.bi - usize::from(lay.ei == 0);
    let first_of = |it: &mut Interp, blk: usize| -> EResult<Value> {
        let block = lay.block(it, blk)?;
        slot(it, &block, 0)?.ok_or_else(|| trap("Option.unwrap(): null"))
    };
    let epoch = 32 - (nat32(b)? / 3).leading_zeros();
    let mut le = (1u32.wrapping_shl(epoch) / 2) as usize;
    while le != 0 {
        let y = first_of(it, le * 3)?;
        if order(it, who, &compare, &y, &x)? != Ordering::Greater {
            break;
        }
        le /= 2;
    }
    let less_or_equal = le * 3;
    if less_or_equal == 0 {
        let to = lay.size()?.min(2);
        for i in 0..to {
            let y = at(it, l, i)?;
            match order(it, who, &compare, &y, &x)? {
                Ordering::Less => {}
                Ordering::Equal => return found(i),
                Ordering::Greater => return insert(i),
            }
        }
        return insert(to);
    }
    let (mut left, mut right) = (less_or_equal, (b + 1).min(less_or_equal * 2));
    while right - left > 1 {
        let mid = (left + right) / 2;
        let y = first_of(it, mid)?;
        match order(it, who, &compare, &y, &x)? {
            Ordering::Less => left = mid,
            Ordering::Greater => right = mid,
            Ordering::Equal => return found(index_of(mid, 0)?),
        }
    }
    let block_index = left;
    let block = lay.block(it, block_index)?;
    let (mut lo, mut hi) = (
        0,
        if block_index == lay.bi {
            lay.ei
        } else {
            block_len(it, &block)?
        },
    );
    while lo != hi {
        let mid = (lo + hi) / 2;
        let y = slot(it, &block, mid)?.ok_or_else(|| trap("Option.unwrap(): null"))?;
        match order(it, who, &compare, &y, &x)? {
            Ordering::Less => lo = mid + 1,
            Ordering::Greater => hi = mid,
            Ordering::Equal => return found(index_of(block_index, mid)?),
        }
    }
    insert(index_of(block_index, lo)?)
}

fn list_for_each_entry(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "List.forEachEntry";
    let f = arg(a, 1, who)?.clone();
    each_from(it, arg(a, 0, who)?, 0, who, |it, i, x| {
        it.call_value(&f, &[Value::Nat(i as u64), x])?;
        Ok(true)
    })?;
    Ok(Value::Unit)
}

/// `reverseForEach(l, f)` (`entries`: `reverseForEachEntry(l, f)`, whose index counts the
/// calls from 0, the last element first, as mo:core's does).
fn reverse_for_each(it: &mut Interp, a: &[Value], who: &str, entries: bool) -> R {
    let l = arg(a, 0, who)?;
    let f = arg(a, 1, who)?.clone();
    let end = list_len(it, l)?;
    let mut n = 0u64;
    each_back(it, l, end, who, |it, _, x| {
        if entries {
            it.call_value(&f, &[Value::Nat(n), x])?;
            n += 1;
        } else {
            it.call_value(&f, &[x])?;
        }
        Ok(true)
    })?;
    Ok(Value::Unit)
}

fn list_reverse_for_each(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    reverse_for_each(it, a, "List.reverseForEach", false)
}

fn list_reverse_for_each_entry(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    reverse_for_each(it, a, "List.reverseForEachEntry", true)
}

fn list_for_each_in_range(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "List.forEachInRange";
    let l = arg(a, 0, who)?;
    let f = arg(a, 1, who)?.clone();
    let (from, to) = (usize_arg(a, 2, who)?, usize_arg(a, 3, who)?);
    if !(from <= to && to <= list_len(it, l)?) {
        return Err(trap("Invalid range"));
    }
    let mut left = to - from;
    if left > 0 {
        each_from(it, l, from, who, |it, _, x| {
            it.call_value(&f, &[x])?;
            left -= 1;
            Ok(left > 0)
        })?;
    }
    Ok(Value::Unit)
}

/// An `Int` argument.
fn int_arg(a: &[Value], i: usize, who: &str) -> EResult<i128> {
    match arg(a, i, who)? {
        Value::Nat(n) => Ok(i128::from(*n)),
        Value::Int(n) => Ok(i128::from(*n)),
        other => num::to_bigint(other)
            .and_then(|n| i128::try_from(n).ok())
            .ok_or_else(|| wrong(who, "Int", other)),
    }
}

/// mo:core's `actualInterval`: `[from, to)` with negative bounds counted from the end, both
/// clamped to `[0, size]`.
fn actual_interval(from: i128, to: i128, size: usize) -> (usize, usize) {
    let size = size as i128;
    let clamp = |x: i128| {
        if x < 0 {
            (size + x).max(0)
        } else {
            x.min(size)
        }
    };
    (clamp(from) as usize, clamp(to) as usize)
}

/// `List.range(l, fromInclusive, toExclusive)`: the elements of the interval. As in
/// mo:core, the count runs from `fromInclusive` itself, so a negative start yields up to
/// the end of the list.
fn list_range(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "List.range";
    let l = arg(a, 0, who)?;
    let (from, to) = (int_arg(a, 1, who)?, int_arg(a, 2, who)?);
    let size = list_len(it, l)?;
    let (start, end) = actual_interval(from, to, size);
    let count = (end as i128 - from).max(0);
    let mut out = Vec::new();
    if count > 0 {
        each_from(it, l, start, who, |it, _, x| {
            it.alloc(16)?;
            out.push(x);
            Ok((out.len() as i128) < count)
        })?;
    }
    Ok(iter_value(VecIter {
        items: Rc::from(out),
        pos: 0,
    }))
}

/// `sliceToArray` / `sliceToVarArray(l, fromInclusive, toExclusive)`.
fn slice(it: &mut Interp, a: &[Value], who: &str) -> EResult<Vec<Value>> {
    let l = arg(a, 0, who)?;
    let (from, to) = (int_arg(a, 1, who)?, int_arg(a, 2, who)?);
    let (start, end) = actual_interval(from, to, list_len(it, l)?);
    let n = end
        .checked_sub(start)
        .ok_or_else(|| trap("arithmetic overflow"))?;
    let mut out = Vec::with_capacity(n);
    if n > 0 {
        each_from(it, l, start, who, |it, _, x| {
            it.alloc(16)?;
            out.push(x);
            Ok(out.len() < n)
        })?;
    }
    if out.len() < n {
        return Err(trap("List: internal error"));
    }
    Ok(out)
}

fn list_slice_to_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Array(Rc::from(slice(it, a, "List.sliceToArray")?)))
}

fn list_slice_to_var_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(var_array(slice(it, a, "List.sliceToVarArray")?))
}

fn list_reverse_enumerate(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let mut items = list_items(it, arg(a, 0, "List.reverseEnumerate")?)?;
    it.alloc(32 * items.len() as u64)?;
    let pairs = items
        .drain(..)
        .enumerate()
        .rev()
        .map(|(i, x)| Value::Tuple(Rc::from(vec![Value::Nat(i as u64), x])))
        .collect::<Vec<_>>();
    Ok(iter_value(VecIter {
        items: Rc::from(pairs),
        pos: 0,
    }))
}

/// `List.reverseInPlace(l)`: swaps the first half with the second, slot by slot.
fn list_reverse_in_place(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let lv = arg(a, 0, "List.reverseInPlace")?;
    let l = changeable(lv, "List.reverseInPlace")?;
    let items = list_items(it, lv)?;
    if items.len() <= 1 {
        return Ok(Value::Unit);
    }
    let mut next = items.into_iter().rev();
    l.walk_slots(it, |_, db, j, _| match next.next() {
        Some(x) => aset(db, j, Value::some(x)),
        None => Ok(()),
    })?;
    Ok(Value::Unit)
}

/// `List.reverse(l)`: a list of `l`'s size (`repeatInternal(null, n)`) filled from the back.
fn list_reverse(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = list_items(it, arg(a, 0, "List.reverse")?)?;
    let out = repeat_internal(it, Value::Null, items.len())?;
    let r = changeable(&out, "List.reverse")?;
    let mut next = items.into_iter().rev();
    let blocks = r.blocks()?;
    let (bi, ei) = (r.bi()?, r.ei()?);
    for i in 1..=bi.min(alen(&blocks).saturating_sub(1)) {
        let db = arr_of(&aget(&blocks, i)?)?;
        let sz = if i == bi { ei } else { alen(&db) };
        for j in 0..sz {
            if let Some(x) = next.next() {
                aset(&db, j, Value::some(x))?;
            }
        }
    }
    Ok(out)
}

/// `List.toPure(l)`: the elements as a `pure/List` (`?(x, rest)` cells).
fn list_to_pure(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = list_items(it, arg(a, 0, "List.toPure")?)?;
    it.alloc(32 * items.len() as u64)?;
    Ok(items.into_iter().rev().fold(Value::Null, |rest, x| {
        Value::some(Value::Tuple(Rc::from(vec![x, rest])))
    }))
}

fn list_from_pure(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = super::pure::list_of(it, arg(a, 0, "List.fromPure")?, "List.fromPure")?;
    let mut next = items.into_iter();
    list_from(it, |_| Ok(next.next()))
}

fn list_equal(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "List.equal";
    let (l1, l2) = (arg(a, 0, who)?, arg(a, 1, who)?);
    if list_len(it, l1)? != list_len(it, l2)? {
        return Ok(Value::Bool(false));
    }
    let eq = arg(a, 2, who)?;
    let (x, y) = (list_items(it, l1)?, list_items(it, l2)?);
    for (x, y) in x.into_iter().zip(y) {
        if !bool_of(&it.call_value(eq, &[x, y])?, who)? {
            return Ok(Value::Bool(false));
        }
    }
    Ok(Value::Bool(true))
}

fn list_compare(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "List.compare";
    let (l1, l2) = (arg(a, 0, who)?, arg(a, 1, who)?);
    let compare = arg(a, 2, who)?;
    let (x, y) = (list_items(it, l1)?, list_items(it, l2)?);
    let (n1, n2) = (x.len(), y.len());
    for (x, y) in x.into_iter().zip(y) {
        let o = order_value(who, &it.call_value(compare, &[x, y])?)?;
        if o != Ordering::Equal {
            return Ok(super::btree::order_variant(o));
        }
    }
    Ok(super::btree::order_variant(n1.cmp(&n2)))
}

/// The state of a `List.reader(l, start)` function: the list and the next index.
struct Reader {
    list: Value,
    next: usize,
}

impl NativeIter for Reader {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        let x = get(it, &self.list, self.next)?;
        self.next += 1;
        Ok(x)
    }
}

fn reader_next(it: &mut Interp, this: Option<&Value>, _: &[Value]) -> R {
    let r = this.ok_or_else(|| trap("List.reader: no list"))?;
    it.iter_next(r)?
        .ok_or_else(|| trap("List.reader(): out of bounds"))
}

static READER_NEXT: Builtin = func!("reader", reader_next);

/// `List.reader(l, start)`: a function giving the elements from `start` one per call (a
/// trap past the end).
fn list_reader(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let list = arg(a, 0, "List.reader")?.clone();
    let next = usize_arg(a, 1, "List.reader")?;
    Ok(Value::Builtin(Rc::new(BoundBuiltin {
        f: &READER_NEXT,
        this: Some(iter_value(Reader { list, next })),
    })))
}

// ---- what `PriorityQueue` needs of its `heap` list ----

/// `List.add` on a script's list.
pub(super) fn add(it: &mut Interp, l: &Value, x: Value, who: &str) -> EResult<()> {
    changeable(l, who)?.add(it, x)
}

/// `List.put` on a script's list.
pub(super) fn put_at(l: &Value, i: usize, x: Value, who: &str) -> EResult<()> {
    put(&changeable(l, who)?, i, x)
}

/// `List.removeLast` on a script's list.
pub(super) fn remove_last(l: &Value, who: &str) -> EResult<Option<Value>> {
    changeable(l, who)?.remove_last()
}

/// `List.clear` on a script's list.
pub(super) fn clear(l: &Value, who: &str) -> EResult<()> {
    let l = changeable(l, who)?;
    l.set_blocks(vec![empty_block()]);
    l.set_bi(1);
    l.set_ei(0);
    Ok(())
}

/// `List.get`, `List.at` and `List.size` of any list.
pub(super) fn element(it: &mut Interp, l: &Value, i: usize) -> EResult<Option<Value>> {
    get(it, l, i)
}

/// `List.at`.
pub(super) fn element_at(it: &mut Interp, l: &Value, i: usize) -> EResult<Value> {
    at(it, l, i)
}

/// `List.size`.
pub(super) fn size(it: &mut Interp, l: &Value) -> EResult<usize> {
    list_len(it, l)
}

/// `List.clone`.
pub(super) fn clone(it: &mut Interp, l: &Value) -> R {
    list_clone(it, None, std::slice::from_ref(l))
}

/// `List.singleton(x)`.
pub(super) fn singleton(x: Value) -> Value {
    list_record(vec![empty_block(), var_array(vec![Value::some(x)])], 2, 0)
}

/// `mo:core/List`.
pub static LIST_MOD: Module = Module {
    name: "List",
    members: &[
        func!("empty", list_empty),
        func!("singleton", list_singleton),
        func!("repeat", list_repeat),
        func!("tabulate", list_tabulate),
        func!("fill", list_fill),
        func!("add", list_add),
        func!("addRepeat", list_add_repeat),
        func!("addAll", list_add_all),
        func!("append", list_append),
        func!("truncate", list_truncate),
        func!("clear", list_clear),
        func!("clone", list_clone),
        func!("get", list_get),
        func!("at", list_at),
        func!("put", list_put),
        func!("removeLast", list_remove_last),
        func!("size", list_size),
        func!("isEmpty", list_is_empty),
        func!("values", list_values),
        func!("toArray", list_to_array),
        func!("toVarArray", list_to_var_array),
        func!("fromArray", list_from_array),
        func!("fromVarArray", list_from_var_array),
        func!("fromIter", list_from_iter),
        func!("toList", list_to_list),
        func!("flatten", list_flatten),
        func!("join", list_join),
        func!("map", list_map),
        func!("mapEntries", list_map_entries),
        func!("mapResult", list_map_result),
        func!("mapInPlace", list_map_in_place),
        func!("filter", list_filter),
        func!("filterMap", list_filter_map),
        func!("flatMap", list_flat_map),
        func!("retain", list_retain),
        func!("deduplicate", list_deduplicate),
        func!("sort", list_sort),
        func!("sortInPlace", list_sort_in_place),
        func!("isSorted", list_is_sorted),
        func!("nextIndexOf", list_next_index_of),
        func!("prevIndexOf", list_prev_index_of),
        func!("lastIndexOf", list_last_index_of),
        func!("findLastIndex", list_find_last_index),
        func!("binarySearch", list_binary_search),
        func!("forEachEntry", list_for_each_entry),
        func!("forEachInRange", list_for_each_in_range),
        func!("reverseForEach", list_reverse_for_each),
        func!("reverseForEachEntry", list_reverse_for_each_entry),
        func!("reverseEnumerate", list_reverse_enumerate),
        func!("range", list_range),
        func!("sliceToArray", list_slice_to_array),
        func!("sliceToVarArray", list_slice_to_var_array),
        func!("reverse", list_reverse),
        func!("reverseInPlace", list_reverse_in_place),
        func!("reader", list_reader),
        func!("toPure", list_to_pure),
        func!("fromPure", list_from_pure),
        func!("equal", list_equal),
        func!("compare", list_compare),
    ],
};
