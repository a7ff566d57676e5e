//! Object tags (spec 2.2) and their sorts, for every supported layout era.

use super::TagScheme;

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
            Tag::Bits64(BitsSort::Unsigned) => "Bits64 U",
            Tag::Bits64(BitsSort::Signed) => "Bits64 S",
            Tag::Bits64(BitsSort::Float) => "Bits64 F",
            Tag::Bits32(BitsSort::Unsigned) => "Bits32 U",
            Tag::Bits32(BitsSort::Signed) => "Bits32 S",
            Tag::Bits32(BitsSort::Float) => "Bits32 F",
            Tag::MutBox => "MutBox",
            Tag::Closure => "Closure",
            Tag::Some => "Some",
            Tag::Variant => "Variant",
            Tag::Blob(BlobSort::Bytes) => "Blob B",
            Tag::Blob(BlobSort::Text) => "Blob T",
            Tag::Blob(BlobSort::Principal) => "Blob P",
            Tag::Blob(BlobSort::Actor) => "Blob A",
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
}
