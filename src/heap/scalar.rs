//! Scalar word decoding per layout (spec section 4), for the type-directed value decoder.
//!
//! Each method returns `None` when the word is not an unboxed scalar of that type (wrong type
//! tag, or a pointer to a boxed value: then decode the box).

/// How unboxed scalars are encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum ScalarCoding {
    /// EOP: 64-bit words, precise type tags.
    Eop,
    /// Classical without rtti: 32-bit words, shifted, no tags.
    Classical,
    /// Classical with `--experimental-rtti`: 32-bit words with type tags.
    ClassicalRtti,
    /// Classical of moc < 0.11.0 (before `ubits`): as [`ScalarCoding::Classical`] but Char is
    /// shifted by 8 (`untag_codepoint = shrU 8`), and every compact word, unsigned ones too,
    /// holds a signed 31-bit value (`-2^30 <= x < 2^30` of the bit pattern, `shrS 1`): Nat32
    /// and Nat64 near their maximum are compact negatives.
    ClassicalPreUbits,
}

#[inline]
fn low(w: u64, bits: u32) -> u64 {
    w & ((1u64 << bits) - 1)
}

impl ScalarCoding {
    /// `Bool`: 0 is false, 1 is true.
    #[inline]
    pub fn bool(self, w: u64) -> Option<bool> {
        match w {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }

    /// Compact `Nat`/`Int` (otherwise a BigInt pointer).
    #[inline]
    pub fn nat_int(self, w: u64) -> Option<i64> {
        match self {
            ScalarCoding::Eop => (low(w, 2) == 0b10).then_some((w as i64) >> 2),
            ScalarCoding::Classical | ScalarCoding::ClassicalPreUbits => {
                (w & 1 == 0).then_some(i64::from((w as u32 as i32) >> 1))
            }
            ScalarCoding::ClassicalRtti => {
                (low(w, 2) == 0b10).then_some(i64::from((w as u32 as i32) >> 2))
            }
        }
    }

    /// Compact `Nat64` (otherwise a Bits64 U pointer).
    #[inline]
    pub fn nat64(self, w: u64) -> Option<u64> {
        match self {
            ScalarCoding::Eop => (low(w, 4) == 0b0100).then_some(w >> 4),
            ScalarCoding::Classical => (w & 1 == 0).then_some(u64::from(w as u32 >> 1)),
            // Before `ubits` every 64-bit word is tagged by its signed value (`shrS 1`, then
            // sign-extended): 2^64 - 1 is the compact -1.
            ScalarCoding::ClassicalPreUbits => {
                (w & 1 == 0).then_some(i64::from((w as u32 as i32) >> 1) as u64)
            }
            ScalarCoding::ClassicalRtti => {
                (low(w, 4) == 0b0100).then_some(u64::from(w as u32 >> 4))
            }
        }
    }

    /// Compact `Int64` (otherwise a Bits64 S pointer).
    #[inline]
    pub fn int64(self, w: u64) -> Option<i64> {
        match self {
            ScalarCoding::Eop => (low(w, 4) == 0b1100).then_some((w as i64) >> 4),
            ScalarCoding::Classical | ScalarCoding::ClassicalPreUbits => {
                (w & 1 == 0).then_some(i64::from((w as u32 as i32) >> 1))
            }
            ScalarCoding::ClassicalRtti => {
                (low(w, 4) == 0b1100).then_some(i64::from((w as u32 as i32) >> 4))
            }
        }
    }

    /// `Nat32` (classical: otherwise a Bits32 U pointer).
    #[inline]
    pub fn nat32(self, w: u64) -> Option<u32> {
        match self {
            ScalarCoding::Eop => (low(w, 32) == 0x4000_0000).then_some((w >> 32) as u32),
            ScalarCoding::Classical => (w & 1 == 0).then_some(w as u32 >> 1),
            // Before `ubits` every 32-bit word is tagged by its signed value (`shrS 1`).
            ScalarCoding::ClassicalPreUbits => {
                (w & 1 == 0).then_some(((w as u32 as i32) >> 1) as u32)
            }
            ScalarCoding::ClassicalRtti => (low(w, 5) == 0b01000).then_some(w as u32 >> 5),
        }
    }

    /// `Int32` (classical: otherwise a Bits32 S pointer).
    #[inline]
    pub fn int32(self, w: u64) -> Option<i32> {
        match self {
            ScalarCoding::Eop => (low(w, 32) == 0xC000_0000).then_some((w >> 32) as u32 as i32),
            ScalarCoding::Classical | ScalarCoding::ClassicalPreUbits => {
                (w & 1 == 0).then_some((w as u32 as i32) >> 1)
            }
            ScalarCoding::ClassicalRtti => (low(w, 5) == 0b11000).then_some((w as u32 as i32) >> 5),
        }
    }

    /// `(shift, tag)` for a small type: value `<< shift`, the low `shift` bits equal `tag`.
    #[inline]
    fn small(self, eop_shift: u32, classic_shift: u32, signed: bool) -> (u32, u64) {
        let code: u64 = if signed { 0b11 } else { 0b01 };
        match self {
            ScalarCoding::Eop => (eop_shift, code << (eop_shift - 2)),
            ScalarCoding::Classical | ScalarCoding::ClassicalPreUbits => (classic_shift, 0),
            ScalarCoding::ClassicalRtti => (classic_shift, code << (classic_shift - 2)),
        }
    }

    #[inline]
    fn small_bits(self, w: u64, eop_shift: u32, classic_shift: u32, signed: bool) -> Option<u64> {
        let (shift, tag) = self.small(eop_shift, classic_shift, signed);
        let w = if self == ScalarCoding::Eop {
            w
        } else {
            u64::from(w as u32)
        };
        (low(w, shift) == tag).then_some(w >> shift)
    }

    /// `Nat16`.
    #[inline]
    pub fn nat16(self, w: u64) -> Option<u16> {
        self.small_bits(w, 48, 16, false).map(|v| v as u16)
    }

    /// `Int16`.
    #[inline]
    pub fn int16(self, w: u64) -> Option<i16> {
        self.small_bits(w, 48, 16, true).map(|v| v as u16 as i16)
    }

    /// `Nat8`.
    #[inline]
    pub fn nat8(self, w: u64) -> Option<u8> {
        self.small_bits(w, 56, 24, false).map(|v| v as u8)
    }

    /// `Int8`.
    #[inline]
    pub fn int8(self, w: u64) -> Option<i8> {
        self.small_bits(w, 56, 24, true).map(|v| v as u8 as i8)
    }

    /// `Char` as a code point (not checked to be a valid `char`).
    #[inline]
    pub fn char(self, w: u64) -> Option<u32> {
        match self {
            ScalarCoding::Eop => (low(w, 43) == 0x200_0000_0000).then_some((w >> 43) as u32),
            ScalarCoding::Classical => (low(w, 11) == 0).then_some((w as u32) >> 11),
            ScalarCoding::ClassicalPreUbits => (low(w, 8) == 0).then_some((w as u32) >> 8),
            ScalarCoding::ClassicalRtti => (low(w, 11) == 0x200).then_some((w as u32) >> 11),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ScalarCoding::*;

    #[test]
    fn eop_examples_from_the_spec() {
        assert_eq!(Eop.nat_int(0xAA), Some(42));
        assert_eq!(Eop.nat_int(0xFFFF_FFFF_FFFF_FFE6), Some(-7));
        assert_eq!(Eop.nat64(0x54), Some(5));
        assert_eq!(Eop.int64(0xFFFF_FFFF_FFFF_FFBC), Some(-5));
        assert_eq!(Eop.nat8(0xC840_0000_0000_0000), Some(200));
        assert_eq!(Eop.int8(0x9CC0_0000_0000_0000), Some(-100));
        assert_eq!(Eop.nat16(0xEA60_4000_0000_0000), Some(60000));
        assert_eq!(Eop.nat32(0xEE6B_2800_4000_0000), Some(4_000_000_000));
        assert_eq!(Eop.char(0x001D_DA00_0000_0000), Some('λ' as u32));
        assert_eq!(Eop.nat8(0xC8C0_0000_0000_0000), None);
    }

    #[test]
    fn classical_examples() {
        assert_eq!(Classical.nat_int(84), Some(42));
        assert_eq!(ClassicalRtti.nat_int(0xAA), Some(42));
        assert_eq!(Classical.nat8(200 << 24), Some(200));
        assert_eq!(ClassicalRtti.int8((0x9C << 24) | (0b11 << 22)), Some(-100));
        assert_eq!(Classical.char(('λ' as u64) << 11), Some('λ' as u32));
        assert_eq!(
            ClassicalRtti.char((('λ' as u64) << 11) | 0x200),
            Some('λ' as u32)
        );
        assert_eq!(ClassicalRtti.nat32((7 << 5) | 0b01000), Some(7));
        assert_eq!(Classical.int32(0xFFFF_FFFE), Some(-1));
        assert_eq!(ClassicalPreUbits.char(('λ' as u64) << 8), Some('λ' as u32));
        assert_eq!(ClassicalPreUbits.char(1 << 7), None);
        assert_eq!(ClassicalPreUbits.nat_int(0xFFFF_FFFE), Some(-1));
        assert_eq!(ClassicalPreUbits.nat64(0xFFFF_FFFE), Some(u64::MAX));
        assert_eq!(ClassicalPreUbits.nat32(0xFFFF_FFFE), Some(u32::MAX));
        assert_eq!(Classical.nat32(0xFFFF_FFFE), Some(0x7FFF_FFFF));
    }
}
