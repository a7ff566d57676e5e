//! Object tags (spec 2.2) and their sorts, for every supported layout era.

use super::TagScheme;

use ArraySort as A;
use BitsSort as B;
use BlobSort as S;

/// The sort of an array object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum ArraySort {
    /// `[T]`, tag 3.
    Immutable,
    /// `[var T]`, tag 5.
    Mutable,
    /// Tuple, tag 7.
    Tuple,
    /// Shared function reference `(actor, method)`, tag 9.
    Shared,
    /// Classical moc < 0.13: one tag for every array sort; the sort is the value's type.
    Unknown,
}

impl ArraySort {
    /// Whether an array of this sort may be a tuple (`Unknown`: the type decides).
    #[inline]
    pub fn may_be_tuple(self) -> bool {
        matches!(self, ArraySort::Tuple | ArraySort::Unknown)
    }

    /// Whether an array of this sort may be a `[T]` or `[var T]` (`Unknown`: the type decides).
    #[inline]
    pub fn may_be_array(self) -> bool {
        matches!(
            self,
            ArraySort::Immutable | ArraySort::Mutable | ArraySort::Unknown
        )
    }

    /// Whether an array of this sort may be a shared function reference (`Unknown`: the type
    /// decides).
    #[inline]
    pub fn may_be_shared(self) -> bool {
        matches!(self, ArraySort::Shared | ArraySort::Unknown)
    }
}

/// The sort of a boxed Bits32/Bits64 object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum BitsSort {
    /// Unsigned (Nat32/Nat64).
    Unsigned,
    /// Signed (Int32/Int64).
    Signed,
    /// Float.
    Float,
    /// Classical moc < 0.13: one tag for every sort; the sort is the value's type.
    Unknown,
}

/// The sort of a blob object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum BlobSort {
    /// `Blob` bytes, tag 25.
    Bytes,
    /// `Text` UTF-8, tag 27.
    Text,
    /// `Principal`, tag 29.
    Principal,
    /// Actor reference, tag 31.
    Actor,
    /// Classical moc < 0.13: one tag for Blob, Text, Principal and actor bytes; the sort is
    /// the value's type.
    Unknown,
}

/// An object tag, with slice tags already mapped to their base array sort.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Tag {
    /// Record / object / module (1).
    Object,
    /// Array of a sort (3, 5, 7, 9, or a slice tag).
    Array(ArraySort),
    /// Boxed 64-bit value (11, 13, 15).
    Bits64(BitsSort),
    /// Boxed 32-bit value (classical 41, 43, 45).
    Bits32(BitsSort),
    /// Mutable cell (17).
    MutBox,
    /// Classical moc < 0.11.3: the indirection of a record's `var` field (laid out as a
    /// MutBox, decoded as one).
    ObjInd,
    /// Function value (19).
    Closure,
    /// Option box (21).
    Some,
    /// Variant (23).
    Variant,
    /// Blob of a sort (25, 27, 29, 31).
    Blob(BlobSort),
    /// Copying-GC forwarding block (33).
    FwdPtr,
    /// libtommath big integer (35).
    BigInt,
    /// Text rope node (37).
    Concat,
    /// Stable-memory region (39).
    Region,
    /// Weak reference (EOP >= 0.16, 45).
    WeakRef,
    /// Classical null singleton (47).
    Null,
    /// One-word filler (EOP 41, classical 49).
    OneWordFiller,
    /// Free space block (EOP 43, classical 51).
    FreeSpace,
}

impl Tag {
    /// A short stable name (`Object`, `Array M`, `Blob T`, ...), used in stats and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Tag::Object => "Object",
            Tag::Array(ArraySort::Immutable) => "Array I",
            Tag::Array(ArraySort::Mutable) => "Array M",
            Tag::Array(ArraySort::Tuple) => "Array T",
            Tag::Array(ArraySort::Shared) => "Array S",
            Tag::Array(ArraySort::Unknown) => "Array (sort unknown)",
            Tag::Bits64(BitsSort::Unsigned) => "Bits64 U",
            Tag::Bits64(BitsSort::Signed) => "Bits64 S",
            Tag::Bits64(BitsSort::Float) => "Bits64 F",
            Tag::Bits64(BitsSort::Unknown) => "Bits64 (sort unknown)",
            Tag::Bits32(BitsSort::Unsigned) => "Bits32 U",
            Tag::Bits32(BitsSort::Signed) => "Bits32 S",
            Tag::Bits32(BitsSort::Float) => "Bits32 F",
            Tag::Bits32(BitsSort::Unknown) => "Bits32 (sort unknown)",
            Tag::MutBox => "MutBox",
            Tag::ObjInd => "ObjInd",
            Tag::Closure => "Closure",
            Tag::Some => "Some",
            Tag::Variant => "Variant",
            Tag::Blob(BlobSort::Bytes) => "Blob B",
            Tag::Blob(BlobSort::Text) => "Blob T",
            Tag::Blob(BlobSort::Principal) => "Blob P",
            Tag::Blob(BlobSort::Actor) => "Blob A",
            Tag::Blob(BlobSort::Unknown) => "Blob (sort unknown)",
            Tag::FwdPtr => "FwdPtr",
            Tag::BigInt => "BigInt",
            Tag::Concat => "Concat",
            Tag::Region => "Region",
            Tag::WeakRef => "WeakRef",
            Tag::Null => "Null",
            Tag::OneWordFiller => "OneWordFiller",
            Tag::FreeSpace => "FreeSpace",
        }
    }

    /// Whether the block has a forwarding word (when the layout has them): every real object
    /// except `OneWordFiller`, `FreeSpace` and `FwdPtr`.
    #[inline]
    pub fn has_forwarding(self) -> bool {
        !matches!(self, Tag::OneWordFiller | Tag::FreeSpace | Tag::FwdPtr)
    }

    /// Whether this is a real object (not a filler, free space or forwarding block).
    #[inline]
    pub fn is_object(self) -> bool {
        self.has_forwarding()
    }

    /// Decodes a header word: the tag and, for slice tags, the resume index.
    #[inline(always)]
    pub fn decode(raw: u64, scheme: TagScheme) -> Option<(Tag, Option<u64>)> {
        if let Some(table) = scheme.legacy_table() {
            return Self::decode_legacy(raw, table, scheme.slice_min());
        }
        let t = match raw {
            1 => Tag::Object,
            3 => Tag::Array(ArraySort::Immutable),
            5 => Tag::Array(ArraySort::Mutable),
            7 => Tag::Array(ArraySort::Tuple),
            9 => Tag::Array(ArraySort::Shared),
            11 => Tag::Bits64(BitsSort::Unsigned),
            13 => Tag::Bits64(BitsSort::Signed),
            15 => Tag::Bits64(BitsSort::Float),
            17 => Tag::MutBox,
            19 => Tag::Closure,
            21 => Tag::Some,
            23 => Tag::Variant,
            25 => Tag::Blob(BlobSort::Bytes),
            27 => Tag::Blob(BlobSort::Text),
            29 => Tag::Blob(BlobSort::Principal),
            31 => Tag::Blob(BlobSort::Actor),
            33 => Tag::FwdPtr,
            35 => Tag::BigInt,
            37 => Tag::Concat,
            39 => Tag::Region,
            _ => return Self::decode_high(raw, scheme),
        };
        Some((t, None))
    }

    /// Classical moc < 0.13: odd tags numbered densely from 1 (`table[(raw - 1) / 2]`), then
    /// slice tags whose value is the resume index itself.
    #[inline(always)]
    fn decode_legacy(raw: u64, table: &[Tag], slice_min: u64) -> Option<(Tag, Option<u64>)> {
        if raw >= slice_min {
            if raw > u64::from(u32::MAX) {
                return None;
            }
            return Some((Tag::Array(ArraySort::Unknown), Some(raw)));
        }
        if raw.is_multiple_of(2) {
            return None;
        }
        let t = *table.get(usize::try_from(raw / 2).ok()?)?;
        Some((t, None))
    }

    #[inline(always)]
    fn decode_high(raw: u64, scheme: TagScheme) -> Option<(Tag, Option<u64>)> {
        let tag = match (scheme, raw) {
            (TagScheme::Classical, 41) => Tag::Bits32(BitsSort::Unsigned),
            (TagScheme::Classical, 43) => Tag::Bits32(BitsSort::Signed),
            (TagScheme::Classical, 45) => Tag::Bits32(BitsSort::Float),
            (TagScheme::Classical, 47) => Tag::Null,
            (TagScheme::Classical, 49) => Tag::OneWordFiller,
            (TagScheme::Classical, 51) => Tag::FreeSpace,
            (TagScheme::Eop016 | TagScheme::Eop013, 41) => Tag::OneWordFiller,
            (TagScheme::Eop016 | TagScheme::Eop013, 43) => Tag::FreeSpace,
            (TagScheme::Eop016, 45) => Tag::WeakRef,
            _ => {
                if raw < scheme.slice_min() {
                    return None;
                }
                let bits = scheme.word_bits();
                if bits == 32 && raw > u64::from(u32::MAX) {
                    return None;
                }
                let sort = match raw >> (bits - 2) {
                    0 => ArraySort::Immutable,
                    1 => ArraySort::Mutable,
                    2 => ArraySort::Tuple,
                    _ => ArraySort::Shared,
                };
                let index = raw & ((1u64 << (bits - 2)) - 1);
                return Some((Tag::Array(sort), Some(index)));
            }
        };
        Some((tag, None))
    }
}

/// moc 0.11.3-0.12.1 (`types.rs` at 0.12.1): OBJECT 1, ARRAY 3, BITS64 5, MUTBOX 7, CLOSURE 9,
/// SOME 11, VARIANT 13, BLOB 15, FWD_PTR 17, BITS32 19, BIGINT 21, CONCAT 23, REGION 25,
/// NULL 27, ONE_WORD_FILLER 29, FREE_SPACE 31; slices from 32.
pub(super) const TAGS_0_11_3: [Tag; 16] = [
    Tag::Object,
    Tag::Array(A::Unknown),
    Tag::Bits64(B::Unknown),
    Tag::MutBox,
    Tag::Closure,
    Tag::Some,
    Tag::Variant,
    Tag::Blob(S::Unknown),
    Tag::FwdPtr,
    Tag::Bits32(B::Unknown),
    Tag::BigInt,
    Tag::Concat,
    Tag::Region,
    Tag::Null,
    Tag::OneWordFiller,
    Tag::FreeSpace,
];

/// moc 0.10.0-0.11.2 (`types.rs` at 0.10.0 and 0.11.2): OBJECT 1, OBJ_IND 3, ARRAY 5, BITS64 7,
/// MUTBOX 9, CLOSURE 11, SOME 13, VARIANT 15, BLOB 17, FWD_PTR 19, BITS32 21, BIGINT 23,
/// CONCAT 25, REGION 27, NULL 29, ONE_WORD_FILLER 31, FREE_SPACE 33; slices from 34.
pub(super) const TAGS_0_10_0: [Tag; 17] = [
    Tag::Object,
    Tag::ObjInd,
    Tag::Array(A::Unknown),
    Tag::Bits64(B::Unknown),
    Tag::MutBox,
    Tag::Closure,
    Tag::Some,
    Tag::Variant,
    Tag::Blob(S::Unknown),
    Tag::FwdPtr,
    Tag::Bits32(B::Unknown),
    Tag::BigInt,
    Tag::Concat,
    Tag::Region,
    Tag::Null,
    Tag::OneWordFiller,
    Tag::FreeSpace,
];

/// moc 0.6.10-0.9.8 (`types.rs` at 0.7.3, 0.8.7, 0.9.8): as 0.10.0 without REGION: NULL 27,
/// ONE_WORD_FILLER 29, FREE_SPACE 31; slices from 32.
pub(super) const TAGS_0_6_10: [Tag; 16] = [
    Tag::Object,
    Tag::ObjInd,
    Tag::Array(A::Unknown),
    Tag::Bits64(B::Unknown),
    Tag::MutBox,
    Tag::Closure,
    Tag::Some,
    Tag::Variant,
    Tag::Blob(S::Unknown),
    Tag::FwdPtr,
    Tag::Bits32(B::Unknown),
    Tag::BigInt,
    Tag::Concat,
    Tag::Null,
    Tag::OneWordFiller,
    Tag::FreeSpace,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slice_tags_map_to_base_sorts() {
        assert_eq!(
            Tag::decode(0x4003_5E80, TagScheme::Classical),
            Some((Tag::Array(ArraySort::Mutable), Some(220_800)))
        );
        assert_eq!(
            Tag::decode(46, TagScheme::Eop016).map(|t| t.0),
            Some(Tag::Array(ArraySort::Immutable))
        );
        assert_eq!(
            Tag::decode(45, TagScheme::Eop013).map(|t| t.1),
            Some(Some(45))
        );
        assert_eq!(
            Tag::decode(44, TagScheme::Eop013).map(|t| t.1),
            Some(Some(44))
        );
        assert_eq!(Tag::decode(0, TagScheme::Eop016), Option::None);
        assert_eq!(
            Tag::decode(47, TagScheme::Classical).map(|t| t.0),
            Some(Tag::Null)
        );
        assert_eq!(Tag::decode(1 << 40, TagScheme::Classical), Option::None);
    }

    #[test]
    fn legacy_numberings_follow_each_releases_types_rs() {
        let tag = |raw, scheme| Tag::decode(raw, scheme).map(|t| t.0);
        // 0.11.3-0.12.1: no OBJ_IND, REGION 25, NULL 27, slices from 32.
        let s = TagScheme::Classical0113;
        assert_eq!(tag(1, s), Some(Tag::Object));
        assert_eq!(tag(3, s), Some(Tag::Array(ArraySort::Unknown)));
        assert_eq!(tag(5, s), Some(Tag::Bits64(BitsSort::Unknown)));
        assert_eq!(tag(7, s), Some(Tag::MutBox));
        assert_eq!(tag(11, s), Some(Tag::Some));
        assert_eq!(tag(15, s), Some(Tag::Blob(BlobSort::Unknown)));
        assert_eq!(tag(17, s), Some(Tag::FwdPtr));
        assert_eq!(tag(19, s), Some(Tag::Bits32(BitsSort::Unknown)));
        assert_eq!(tag(25, s), Some(Tag::Region));
        assert_eq!(tag(27, s), Some(Tag::Null));
        assert_eq!(tag(31, s), Some(Tag::FreeSpace));
        assert_eq!(tag(2, s), Option::None);
        assert_eq!(
            Tag::decode(32, s),
            Some((Tag::Array(ArraySort::Unknown), Some(32)))
        );
        assert_eq!(Tag::decode(1 << 40, s), Option::None);
        // 0.10.0-0.11.2: OBJ_IND 3, REGION 27, NULL 29, FREE 33, slices from 34.
        let s = TagScheme::Classical0100;
        assert_eq!(tag(3, s), Some(Tag::ObjInd));
        assert_eq!(tag(5, s), Some(Tag::Array(ArraySort::Unknown)));
        assert_eq!(tag(9, s), Some(Tag::MutBox));
        assert_eq!(tag(13, s), Some(Tag::Some));
        assert_eq!(tag(17, s), Some(Tag::Blob(BlobSort::Unknown)));
        assert_eq!(tag(27, s), Some(Tag::Region));
        assert_eq!(tag(29, s), Some(Tag::Null));
        assert_eq!(tag(33, s), Some(Tag::FreeSpace));
        assert_eq!(Tag::decode(33, s).map(|t| t.1), Some(Option::None));
        assert_eq!(Tag::decode(34, s).map(|t| t.1), Some(Some(34)));
        // 0.6.10-0.9.8: no REGION: NULL 27, FREE 31, slices from 32.
        let s = TagScheme::Classical0610;
        assert_eq!(tag(25, s), Some(Tag::Concat));
        assert_eq!(tag(27, s), Some(Tag::Null));
        assert_eq!(tag(31, s), Some(Tag::FreeSpace));
        assert_eq!(Tag::decode(32, s).map(|t| t.1), Some(Some(32)));
    }
}
