//! [`Object`]: a typed, zero-copy view of one heap object, and its decoder.

use crate::image::{Image, WordSize};
use crate::module::Persistence;

use super::{ArraySort, BitsSort, BlobSort, Layout, ObjectError, Tag, EOP_NULL};

/// A run of words inside an object (fields, elements, captures, digits), already bounds-checked.
#[derive(Clone, Copy)]
pub struct Words<'h> {
    bytes: &'h [u8],
    word: WordSize,
    addr: u64,
}

impl std::fmt::Debug for Words<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Words({} at {:#x})", self.len(), self.addr)
    }
}

impl<'h> Words<'h> {
    pub(crate) fn new(bytes: &'h [u8], word: WordSize, addr: u64) -> Words<'h> {
        Words { bytes, word, addr }
    }

    /// The number of words.
    #[inline]
    pub fn len(&self) -> u64 {
        self.bytes.len() as u64 / self.word.bytes()
    }

    /// Whether there are no words.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The address of the first word.
    #[inline]
    pub fn addr(&self) -> u64 {
        self.addr
    }

    /// The address of word `i` (not checked against the length).
    #[inline]
    pub fn addr_of(&self, i: u64) -> u64 {
        self.addr.wrapping_add(i.wrapping_mul(self.word.bytes()))
    }

    /// Word `i`, zero-extended.
    #[inline]
    pub fn get(&self, i: u64) -> Option<u64> {
        let w = self.word.bytes() as usize;
        let start = usize::try_from(i).ok()?.checked_mul(w)?;
        let b = self.bytes.get(start..start.checked_add(w)?)?;
        Some(read_le(b))
    }

    /// All words in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = u64> + 'h {
        self.bytes
            .chunks_exact(self.word.bytes() as usize)
            .map(read_le)
    }
}

/// A little-endian word of 4 or 8 bytes (the two word sizes; other lengths read as the
/// zero-extended bytes). The fixed sizes are plain loads: a copy of a run-time length would
/// be a call to `memcpy` for every word read.
#[inline(always)]
fn read_le(b: &[u8]) -> u64 {
    if let Ok(b) = <[u8; 8]>::try_from(b) {
        return u64::from_le_bytes(b);
    }
    if let Ok(b) = <[u8; 4]>::try_from(b) {
        return u64::from(u32::from_le_bytes(b));
    }
    let mut buf = [0u8; 8];
    let n = b.len().min(8);
    buf[..n].copy_from_slice(&b[..n]);
    u64::from_le_bytes(buf)
}

/// The sorted field-label hashes of an Object (EOP: u64 in a hash blob; classical: raw u32
/// array in static data).
#[derive(Clone, Copy)]
pub struct Hashes<'h> {
    bytes: &'h [u8],
    width: usize,
}

impl std::fmt::Debug for Hashes<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'h> Hashes<'h> {
    /// The number of hashes.
    #[inline]
    pub fn len(&self) -> usize {
        self.bytes.len() / self.width
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Hash `i` (truncated to 32 bits, as label hashes are).
    #[inline]
    pub fn get(&self, i: usize) -> Option<u32> {
        let start = i.checked_mul(self.width)?;
        let b = self.bytes.get(start..start.checked_add(self.width)?)?;
        Some(read_le(b) as u32)
    }

    /// All hashes in stored order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = u32> + 'h {
        self.bytes
            .chunks_exact(self.width)
            .map(|b| read_le(b) as u32)
    }

    /// The position of `hash`, if present.
    pub fn position(&self, hash: u32) -> Option<usize> {
        self.iter().position(|h| h == hash)
    }
}

/// The decoded contents of an object, by kind.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum Body<'h> {
    /// Record/object: label hashes (ascending) and one value word per field.
    Object {
        /// Field label hashes.
        hashes: Hashes<'h>,
        /// Field values (immutable fields hold the value, `var` fields a MutBox pointer).
        fields: Words<'h>,
        /// EOP: the (skewed) pointer to the hash blob; classical: the skewed hash array pointer.
        hash_ptr: u64,
    },
    /// Array, tuple or shared function.
    Array {
        /// Sort.
        sort: ArraySort,
        /// Elements.
        elems: Words<'h>,
        /// Resume index if the header held a slice tag.
        slice_index: Option<u64>,
    },
    /// Boxed 64-bit value (little-endian; Float is IEEE-754 bits).
    Bits64 {
        /// Sort.
        sort: BitsSort,
        /// The payload.
        bits: u64,
    },
    /// Boxed 32-bit value (classical).
    Bits32 {
        /// Sort.
        sort: BitsSort,
        /// The payload.
        bits: u32,
    },
    /// Mutable cell.
    MutBox {
        /// The value word.
        value: u64,
    },
    /// Function value.
    Closure {
        /// Wasm table index.
        funid: u64,
        /// Captured values.
        captured: Words<'h>,
    },
    /// Option box.
    Some {
        /// The wrapped value word.
        value: u64,
    },
    /// Variant.
    Variant {
        /// Raw label hash.
        hash: u32,
        /// Payload word.
        payload: u64,
    },
    /// Blob, Text, Principal or actor bytes.
    Blob {
        /// Sort.
        sort: BlobSort,
        /// The payload bytes (exactly `len`).
        bytes: &'h [u8],
    },
    /// libtommath big integer.
    BigInt {
        /// Whether negative.
        negative: bool,
        /// Digits in use.
        used: u32,
        /// Digits allocated (`digits.len()`).
        alloc: u32,
        /// All allocated digits (the first `used` count), least significant first.
        digits: Words<'h>,
        /// Bits per digit (60 EOP, 28 classical).
        digit_bits: u32,
    },
    /// Text rope node.
    Concat {
        /// Total UTF-8 length.
        n_bytes: u64,
        /// Left text word.
        left: u64,
        /// Right text word.
        right: u64,
    },
    /// Stable-memory region.
    Region {
        /// Region id.
        id: u64,
        /// Pages (64 KiB).
        page_count: u64,
        /// Pointer word to the Blob B of u16 block ids.
        vec_pages: u64,
    },
    /// Weak reference.
    WeakRef {
        /// Target word (pointer or the null sentinel).
        target: u64,
    },
    /// Classical null singleton.
    Null,
    /// One-word filler.
    OneWordFiller,
    /// Free space.
    FreeSpace,
    /// Copying-GC forwarding block.
    FwdPtr {
        /// The forwarding target word.
        target: u64,
    },
}

impl<'h> Body<'h> {
    /// The elements, if this is an array whose sort satisfies `ok`.
    #[inline]
    pub fn array_elems(self, ok: impl Fn(ArraySort) -> bool) -> Option<Words<'h>> {
        match self {
            Body::Array { sort, elems, .. } if ok(sort) => Some(elems),
            _ => None,
        }
    }
}

/// A typed view of one heap object (or filler/free block) at `addr`.
#[derive(Debug, Clone, Copy)]
pub struct Object<'h> {
    /// Address of the header.
    pub addr: u64,
    /// The tag, with slice tags mapped to the array sort.
    pub tag: Tag,
    /// The raw header word.
    pub raw_tag: u64,
    /// Size in bytes (without any EOP Bits64 slack word).
    pub size: u64,
    /// The forwarding word if the layout has one and the tag carries it.
    pub forward: Option<u64>,
    /// The contents.
    pub body: Body<'h>,
}

impl<'h> Object<'h> {
    /// If this is a stale copy (forwarding word points elsewhere), the new address.
    #[inline]
    pub fn forwarded_to(&self) -> Option<u64> {
        let fwd = self.forward?;
        let target = fwd.wrapping_add(1);
        (target != self.addr).then_some(target)
    }

    /// The words of every pointer field the GC traces (pointers only: scalars and the EOP
    /// null sentinel are left out; the Object hash-blob pointer is included in EOP).
    pub fn references(&self) -> impl Iterator<Item = u64> + 'h {
        let slots = self.reference_slots();
        slots
            .extra
            .into_iter()
            .flatten()
            .chain(slots.words.into_iter().flat_map(|w| w.iter()))
            .filter(|&w| is_pointer_word(w))
    }

    /// The fields [`Object::references`] looks at, by position (pointers and scalars alike):
    /// a reader can resume at any position without decoding the fields before it.
    pub fn reference_slots(&self) -> ReferenceSlots<'h> {
        let (extra, words): ([Option<u64>; 2], Option<Words<'h>>) = match self.body {
            Body::Object {
                fields, hash_ptr, ..
            } => {
                let blob = (self.header_is_eop()).then_some(hash_ptr);
                ([blob, None], Some(fields))
            }
            Body::Array { elems, .. } => ([None, None], Some(elems)),
            Body::MutBox { value } | Body::Some { value } => ([Some(value), None], None),
            Body::Closure { captured, .. } => ([None, None], Some(captured)),
            Body::Variant { payload, .. } => ([Some(payload), None], None),
            Body::Concat { left, right, .. } => ([Some(left), Some(right)], None),
            Body::Region { vec_pages, .. } => ([Some(vec_pages), None], None),
            Body::WeakRef { target } => ([Some(target), None], None),
            _ => ([None, None], None),
        };
        ReferenceSlots { extra, words }
    }

    fn header_is_eop(&self) -> bool {
        matches!(self.body, Body::Object { hashes, .. } if hashes.width == 8)
    }
}

/// The fields of an object that may hold references, by position: up to two single fields
/// (positions 0 and 1, absent ones skipped), then a run of words.
#[derive(Debug, Clone, Copy)]
pub struct ReferenceSlots<'h> {
    extra: [Option<u64>; 2],
    words: Option<Words<'h>>,
}

impl ReferenceSlots<'_> {
    /// The number of positions (2 + the run's length).
    #[inline]
    pub fn len(&self) -> u64 {
        2 + self.words.map_or(0, |w| w.len())
    }

    /// Whether there are no fields at all.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.extra == [None, None] && self.words.is_none_or(|w| w.is_empty())
    }

    /// The word at position `k` (`None` for an absent single field or beyond the end).
    #[inline]
    pub fn get(&self, k: u64) -> Option<u64> {
        match k {
            0 | 1 => self.extra[k as usize],
            _ => self.words?.get(k - 2),
        }
    }
}

/// Whether a vanilla word is a pointer: LSB set, not `true` (1), not the EOP null sentinel.
#[inline]
pub fn is_pointer_word(w: u64) -> bool {
    w & 1 == 1 && w != 1 && w != EOP_NULL
}

/// Asks the processor to bring the object the pointer `word` refers to (its first bytes),
/// and the `before` bytes before it (by cache lines of 64 bytes), into the cache ahead of
/// the reads that will follow: a walk that knows the next objects it visits overlaps their
/// memory latency with its work. Objects allocated together (a B-tree node's arrays and
/// records, a text and the tuple made right after it) lie next to each other, the pointed
/// one made last. Only a hint: nothing is read, and a word that is not a pointer, or bytes
/// outside the image, are ignored.
#[inline(always)]
pub(crate) fn prefetch_pointee_and_before(image: &Image, word: u64, before: usize) {
    if !is_pointer_word(word) {
        return;
    }
    let Ok(addr) = usize::try_from(word.wrapping_add(1)) else {
        return;
    };
    let bytes = image.as_slice();
    let mut at = addr.saturating_sub(before);
    while at <= addr {
        if let Some(b) = bytes.get(at..) {
            prefetch(b.as_ptr());
        }
        at += 64;
    }
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn prefetch(p: *const u8) {
    use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
    // SAFETY: SSE is part of every x86_64 target, and a prefetch reads nothing the program
    // sees: it neither faults nor needs `p` to be valid (the callers' `p` is in the image).
    unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast()) };
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn prefetch(_: *const u8) {}

/// The object the pointer `word` refers to, read narrowly in an EOP heap (64-bit words,
/// headers of a tag and a forwarding word) when it is not forwarded: its address, raw tag
/// and first body word (an array's or blob's length). `None` for any other layout, word
/// or object (the general [`decode`] reads those, and reports what is wrong).
#[inline(always)]
fn plain_eop_object(image: &Image, layout: &Layout, word: u64) -> Option<(u64, u64, u64)> {
    if layout.persistence != Persistence::Enhanced
        || layout.word.bytes() != 8
        || layout.header != 16
        || !is_pointer_word(word)
    {
        return None;
    }
    let addr = word.wrapping_add(1);
    if !addr.is_multiple_of(8) {
        return None;
    }
    let head = image.bytes(addr, 24).ok()?;
    let (tag, fwd, first) = (
        read_le(head.get(..8)?),
        read_le(head.get(8..16)?),
        read_le(head.get(16..24)?),
    );
    (fwd.wrapping_add(1) == addr).then_some((addr, tag, first))
}

/// The address and two element words of the tuple of two the pointer `word` refers to (a
/// map's `(K, V)` entry), as [`decode`] reads them after [`resolve`], when the narrow read
/// applies (see `plain_eop_object`); `None`: read it the general way.
#[inline]
pub(crate) fn eop_pair(image: &Image, layout: &Layout, word: u64) -> Option<(u64, u64, u64)> {
    let (addr, tag, len) = plain_eop_object(image, layout, word)?;
    let tuple = matches!(
        Tag::decode(tag, layout.tags),
        Some((Tag::Array(ArraySort::Tuple), None))
    );
    if !tuple || len != 2 {
        return None;
    }
    let elems = image.bytes(addr.checked_add(24)?, 16).ok()?;
    Some((addr, read_le(elems.get(..8)?), read_le(elems.get(8..)?)))
}

/// The address and bytes of the blob (of any sort) the pointer `word` refers to, as
/// [`decode`] reads them after [`resolve`], when the narrow read applies (see
/// `plain_eop_object`); `None`: read it the general way.
#[inline]
pub(crate) fn eop_blob<'h>(
    image: &'h Image,
    layout: &Layout,
    word: u64,
) -> Option<(u64, &'h [u8])> {
    eop_sorted_blob(image, layout, word).map(|(addr, _, bytes)| (addr, bytes))
}

/// [`eop_blob`] with the blob's sort.
#[inline]
pub(crate) fn eop_sorted_blob<'h>(
    image: &'h Image,
    layout: &Layout,
    word: u64,
) -> Option<(u64, BlobSort, &'h [u8])> {
    let (addr, tag, len) = plain_eop_object(image, layout, word)?;
    let Some((Tag::Blob(sort), None)) = Tag::decode(tag, layout.tags) else {
        return None;
    };
    let start = addr.checked_add(24)?;
    let padded = round_up(len, 8)?;
    if !image.contains(start, padded) {
        return None;
    }
    Some((addr, sort, image.bytes(start, len).ok()?))
}

#[inline]
fn round_up(len: u64, w: u64) -> Option<u64> {
    len.checked_add(w - 1).map(|v| v & !(w - 1))
}

/// Follows forwarding words from `addr` (incremental GC), at most a few hops.
pub(crate) fn resolve(image: &Image, layout: &Layout, addr: u64) -> Result<u64, ObjectError> {
    if !layout.has_forwarding() {
        return Ok(addr);
    }
    let w = layout.word.bytes();
    let mut cur = addr;
    for _ in 0..8 {
        if !cur.is_multiple_of(w) {
            return Err(ObjectError::Misaligned { addr: cur });
        }
        let raw = image.read_word(cur)?;
        let tag = Tag::decode(raw, layout.tags).map(|t| t.0);
        match tag {
            Some(t) if t.has_forwarding() => {}
            _ => {
                return Err(ObjectError::BadTag {
                    addr: cur,
                    tag: raw,
                })
            }
        }
        let fwd = image.read_word(cur + w)?;
        let next = fwd.wrapping_add(1);
        if next == cur {
            return Ok(cur);
        }
        if !is_pointer_word(fwd) {
            return Err(ObjectError::BadForward { addr: cur, fwd });
        }
        cur = next;
    }
    Err(ObjectError::ForwardChain { addr })
}

/// Where [`decode`] reads one object: its address, tag, header size and body start. The
/// readers are always inlined (the walk decodes every object: they are its inner loop).
struct Site<'h> {
    image: &'h Image,
    word: WordSize,
    addr: u64,
    tag: Tag,
    h: u64,
    body_at: u64,
}

impl<'h> Site<'h> {
    /// The word `off` bytes after the header.
    #[inline(always)]
    fn rd(&self, off: u64) -> Result<u64, ObjectError> {
        let at = self
            .body_at
            .checked_add(off)
            .ok_or(ObjectError::Misaligned { addr: self.addr })?;
        Ok(self.image.read_word(at)?)
    }

    /// The object is larger than the image allows.
    #[inline(always)]
    fn too_large(&self, size: u64) -> ObjectError {
        ObjectError::TooLarge {
            addr: self.addr,
            tag_name: self.tag.name(),
            size,
        }
    }

    /// `n` words starting `off` bytes after the header: the view and the end offset.
    #[inline(always)]
    fn words(&self, off: u64, n: u64) -> Result<(Words<'h>, u64), ObjectError> {
        let w = self.word.bytes();
        let len = n.checked_mul(w).ok_or_else(|| self.too_large(u64::MAX))?;
        let start = self
            .body_at
            .checked_add(off)
            .ok_or_else(|| self.too_large(u64::MAX))?;
        if !self.image.contains(start, len) {
            return Err(self.too_large(self.h.saturating_add(off).saturating_add(len)));
        }
        let bytes = self.image.bytes(start, len)?;
        Ok((Words::new(bytes, self.word, start), self.h + off + len))
    }

    /// The body of an EOP object: its fields, sized by the field hash blob its first word
    /// points to.
    #[inline(always)]
    fn eop_object(&self, layout: &Layout) -> Result<(Body<'h>, u64), ObjectError> {
        let w = self.word.bytes();
        let hash_ptr = self.rd(0)?;
        if !is_pointer_word(hash_ptr) {
            return Err(ObjectError::Inconsistent {
                addr: self.addr,
                what: "hash blob field is not a pointer",
            });
        }
        let blob = resolve(self.image, layout, hash_ptr.wrapping_add(1))?;
        let blob_tag = self.image.read_word(blob)?;
        if blob_tag != 25 {
            return Err(ObjectError::Inconsistent {
                addr: self.addr,
                what: "hash blob is not a Blob B",
            });
        }
        let blob_len = self.image.read_word(blob + self.h)?;
        if blob_len % 8 != 0 {
            return Err(ObjectError::Inconsistent {
                addr: self.addr,
                what: "hash blob length is not a multiple of 8",
            });
        }
        let n = blob_len / 8;
        let (fields, size) = self.words(w, n)?;
        let hashes = Hashes {
            bytes: self.image.bytes(blob + self.h + w, blob_len)?,
            width: 8,
        };
        Ok((
            Body::Object {
                hashes,
                fields,
                hash_ptr,
            },
            size,
        ))
    }

    /// The body of a classical object: its field count, hash array pointer and fields.
    #[inline(always)]
    fn classical_object(&self) -> Result<(Body<'h>, u64), ObjectError> {
        let w = self.word.bytes();
        let n = self.rd(0)?;
        let hash_ptr = self.rd(w)?;
        let (fields, size) = self.words(2 * w, n)?;
        let hash_bytes = n.checked_mul(4).ok_or_else(|| self.too_large(u64::MAX))?;
        let bytes = self
            .image
            .bytes(hash_ptr.wrapping_add(1), hash_bytes)
            .map_err(|_| ObjectError::Inconsistent {
                addr: self.addr,
                what: "field hash array is outside the image",
            })?;
        Ok((
            Body::Object {
                hashes: Hashes { bytes, width: 4 },
                fields,
                hash_ptr,
            },
            size,
        ))
    }

    /// The body of a `Blob`/`Text` object: its length and bytes, padded to a word.
    #[inline(always)]
    fn blob(&self, sort: BlobSort) -> Result<(Body<'h>, u64), ObjectError> {
        let w = self.word.bytes();
        let len = self.rd(0)?;
        let padded = round_up(len, w).ok_or_else(|| self.too_large(u64::MAX))?;
        let start = self.body_at + w;
        if !self.image.contains(start, padded) {
            return Err(self.too_large((self.h + w).saturating_add(padded)));
        }
        let bytes = self.image.bytes(start, len)?;
        Ok((Body::Blob { sort, bytes }, self.h + w + padded))
    }

    /// The body of a `BigInt`: used and allocated digits, sign and the digits (60-bit
    /// digits under EOP, 28-bit classical).
    #[inline(always)]
    fn big_int(&self, eop: bool) -> Result<(Body<'h>, u64), ObjectError> {
        let used = self.image.read_u32(self.body_at)?;
        let alloc = self.image.read_u32(self.body_at + 4)?;
        let sign = self.image.read_u32(self.body_at + 8)?;
        if used > alloc || sign > 1 {
            return Err(ObjectError::Inconsistent {
                addr: self.addr,
                what: "BigInt used > alloc or bad sign",
            });
        }
        let (digits_off, digit_bits) = if eop { (24, 60) } else { (16, 28) };
        let (digits, size) = self.words(digits_off, u64::from(alloc))?;
        Ok((
            Body::BigInt {
                negative: sign == 1,
                used,
                alloc,
                digits,
                digit_bits,
            },
            size,
        ))
    }

    /// The body of a `Region`: its id, page count and page vector (two layouts: EOP's
    /// three words, classical's id in two 32-bit words).
    #[inline(always)]
    fn region(&self, eop: bool) -> Result<(Body<'h>, u64), ObjectError> {
        if eop {
            return Ok((
                Body::Region {
                    id: self.rd(0)?,
                    page_count: self.rd(8)?,
                    vec_pages: self.rd(16)?,
                },
                self.h + 24,
            ));
        }
        Ok((
            Body::Region {
                id: self.rd(0)? | (self.rd(4)? << 32),
                page_count: self.rd(8)?,
                vec_pages: self.rd(12)?,
            },
            self.h + 16,
        ))
    }

    /// The size of a free-space block: its word count (the word after the tag) and two
    /// header words.
    #[inline(always)]
    fn free_space_size(&self) -> Result<u64, ObjectError> {
        let w = self.word.bytes();
        let words_n = self.image.read_word(self.addr + w)?;
        words_n
            .checked_mul(w)
            .and_then(|b| b.checked_add(2 * w))
            .ok_or_else(|| self.too_large(u64::MAX))
    }
}

/// Decodes the object at `addr` (no forwarding is followed for the object itself; the EOP
/// hash-blob pointer is resolved to size the object).
#[inline]
pub(crate) fn decode<'h>(
    image: &'h Image,
    layout: &Layout,
    addr: u64,
) -> Result<Object<'h>, ObjectError> {
    let w = layout.word.bytes();
    if !addr.is_multiple_of(w) {
        return Err(ObjectError::Misaligned { addr });
    }
    let raw_tag = image.read_word(addr)?;
    let (tag, slice_index) =
        Tag::decode(raw_tag, layout.tags).ok_or(ObjectError::BadTag { addr, tag: raw_tag })?;
    let h = if tag.has_forwarding() {
        layout.header
    } else {
        w
    };
    let forward = if tag.has_forwarding() && layout.has_forwarding() {
        Some(image.read_word(addr + w)?)
    } else {
        None
    };
    let eop = layout.persistence == Persistence::Enhanced;
    let body_at = addr
        .checked_add(h)
        .ok_or(ObjectError::Misaligned { addr })?;
    let site = Site {
        image,
        word: layout.word,
        addr,
        tag,
        h,
        body_at,
    };
    let (body, size) = match tag {
        Tag::Object if eop => site.eop_object(layout)?,
        Tag::Object => site.classical_object()?,
        Tag::Array(sort) => {
            let len = site.rd(0)?;
            let (elems, size) = site.words(w, len)?;
            if slice_index.is_some_and(|i| i > len) {
                return Err(ObjectError::BadTag { addr, tag: raw_tag });
            }
            (
                Body::Array {
                    sort,
                    elems,
                    slice_index,
                },
                size,
            )
        }
        Tag::Bits64(sort) => {
            let bits = image.read_u64(body_at)?;
            (Body::Bits64 { sort, bits }, h + 8)
        }
        Tag::Bits32(sort) => {
            let bits = image.read_u32(body_at)?;
            (Body::Bits32 { sort, bits }, h + 4)
        }
        Tag::MutBox | Tag::ObjInd => (Body::MutBox { value: site.rd(0)? }, h + w),
        Tag::Some => (Body::Some { value: site.rd(0)? }, h + w),
        Tag::WeakRef => (
            Body::WeakRef {
                target: site.rd(0)?,
            },
            h + w,
        ),
        Tag::Closure => {
            let funid = site.rd(0)?;
            let n = site.rd(w)?;
            let (captured, size) = site.words(2 * w, n)?;
            (Body::Closure { funid, captured }, size)
        }
        Tag::Variant => {
            let hash = site.rd(0)? as u32;
            let payload = site.rd(w)?;
            (Body::Variant { hash, payload }, h + 2 * w)
        }
        Tag::Blob(sort) => site.blob(sort)?,
        Tag::BigInt => site.big_int(eop)?,
        Tag::Concat => (
            Body::Concat {
                n_bytes: site.rd(0)?,
                left: site.rd(w)?,
                right: site.rd(2 * w)?,
            },
            h + 3 * w,
        ),
        Tag::Region => site.region(eop)?,
        Tag::Null => (Body::Null, h),
        Tag::OneWordFiller => (Body::OneWordFiller, w),
        Tag::FreeSpace => (Body::FreeSpace, site.free_space_size()?),
        Tag::FwdPtr => (
            Body::FwdPtr {
                target: image.read_word(addr + w)?,
            },
            2 * w,
        ),
    };
    if !image.contains(addr, size) {
        return Err(site.too_large(size));
    }
    Ok(Object {
        addr,
        tag,
        raw_tag,
        size,
        forward,
        body,
    })
}
