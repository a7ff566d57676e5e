//! Mutations of snapshot files: truncations and seeded mutants (bit flips, boundary-value
//! byte and word overwrites, copied and swapped ranges, and heap-aware edits that redirect
//! pointers, change tags and set lengths). Every mutant is a pure function of the file, its
//! map and `(seed, index)`, so a failure is reproduced from what the test prints.

use std::fmt;

use super::files::{FileKind, FileMap, HeapMap};

/// One edit of a file's bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Keep the first `len` bytes.
    Truncate { len: usize },
    /// Overwrite bytes at `at` (clipped to the file).
    Write { at: usize, bytes: Vec<u8> },
    /// Copy `len` bytes from `from` over `to`.
    Copy { from: usize, to: usize, len: usize },
    /// Swap the `len` bytes at `a` with those at `b` (non-overlapping).
    Swap { a: usize, b: usize, len: usize },
    /// Replace `remove` bytes at `at` with `insert` (the file changes length).
    Splice {
        at: usize,
        remove: usize,
        insert: Vec<u8>,
    },
}

impl Edit {
    /// The offsets the edit changes (where its effects start), for runs that look closer
    /// there.
    pub fn offsets(&self) -> Vec<u64> {
        let o = |v: &usize| *v as u64;
        match self {
            Edit::Truncate { len } => vec![o(len)],
            Edit::Write { at, .. } | Edit::Splice { at, .. } => vec![o(at)],
            Edit::Copy { to, .. } => vec![o(to)],
            Edit::Swap { a, b, .. } => vec![o(a), o(b)],
        }
    }

    /// The byte ranges an edit that keeps the file's length may change (clipped to `n`
    /// bytes), `None` for edits that change the length.
    pub fn touched(&self, n: usize) -> Option<Vec<std::ops::Range<usize>>> {
        let range = |at: usize, len: usize| at.min(n)..at.saturating_add(len).min(n);
        match self {
            Edit::Truncate { .. } | Edit::Splice { .. } => None,
            Edit::Write { at, bytes } => Some(vec![range(*at, bytes.len())]),
            Edit::Copy { to, len, .. } => Some(vec![range(*to, *len)]),
            Edit::Swap { a, b, len } => Some(vec![range(*a, *len), range(*b, *len)]),
        }
    }

    /// Applies the edit to `bytes`; out-of-range parts are clipped.
    pub fn apply(&self, bytes: &mut Vec<u8>) {
        match self {
            Edit::Truncate { len } => bytes.truncate(*len),
            Edit::Splice { at, remove, insert } => {
                let n = bytes.len();
                let at = (*at).min(n);
                let end = at.saturating_add(*remove).min(n);
                bytes.splice(at..end, insert.iter().copied());
            }
            _ => self.apply_in_place(bytes),
        }
    }

    /// Applies an edit that keeps the length to `bytes` in place (out-of-range parts are
    /// clipped); does nothing for the others.
    pub fn apply_in_place(&self, bytes: &mut [u8]) {
        let n = bytes.len();
        match self {
            Edit::Truncate { .. } | Edit::Splice { .. } => {}
            Edit::Write { at, bytes: b } => {
                for (i, v) in b.iter().enumerate() {
                    if let Some(slot) = at.checked_add(i).and_then(|p| bytes.get_mut(p)) {
                        *slot = *v;
                    }
                }
            }
            Edit::Copy { from, to, len } => {
                let len = (*len)
                    .min(n.saturating_sub(*from))
                    .min(n.saturating_sub(*to));
                if len > 0 {
                    bytes.copy_within(*from..*from + len, *to);
                }
            }
            Edit::Swap { a, b, len } => {
                let (lo, hi) = ((*a).min(*b), (*a).max(*b));
                let len = (*len).min(hi - lo).min(n.saturating_sub(hi));
                if len > 0 {
                    let (left, right) = bytes.split_at_mut(hi);
                    left[lo..lo + len].swap_with_slice(&mut right[..len]);
                }
            }
        }
    }
}

impl fmt::Display for Edit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Edit::Truncate { len } => write!(f, "truncate to {len:#x} bytes"),
            Edit::Write { at, bytes } => write!(f, "write {} at {at:#x}", hex::encode(bytes)),
            Edit::Copy { from, to, len } => write!(f, "copy {len} bytes {from:#x} -> {to:#x}"),
            Edit::Swap { a, b, len } => write!(f, "swap {len} bytes {a:#x} <-> {b:#x}"),
            Edit::Splice { at, remove, insert } => write!(
                f,
                "splice at {at:#x}: {remove} bytes -> {:?}",
                String::from_utf8_lossy(insert)
            ),
        }
    }
}

/// A mutation: what kind (for the figures) and the edit (for reproduction).
#[derive(Clone, Debug)]
pub struct Mutant {
    /// The kind, e.g. `pointer->mid-object`.
    pub kind: &'static str,
    /// The edit.
    pub edit: Edit,
}

/// The seed of mutant `index` of one file of one fixture (splitmix64 of the parts).
pub fn mutant_seed(seed: u64, fixture: &str, file: FileKind, index: u64) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in fixture.bytes().chain(file.name().bytes()) {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    splitmix(splitmix(h ^ seed) ^ index)
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Mutant `index` of a file: a pure function of the file map and the seed.
pub fn mutant(map: &FileMap, original: &[u8], seed: u64) -> Mutant {
    let mut rng = fastrand::Rng::with_seed(seed);
    match map {
        FileMap::Memory { heap, word } => memory_mutant(original, heap, *word, &mut rng),
        FileMap::Module { sections } => {
            let len = &original.len();
            let at = if !sections.is_empty() && rng.u8(0..10) < 6 {
                let (start, end) = sections[rng.usize(0..sections.len())];
                rng.usize(start..end.max(start + 1))
            } else {
                rng.usize(0..(*len).max(1))
            };
            generic(original, at, &mut rng)
        }
        FileMap::Metadata { numbers } => metadata_mutant(original, numbers, &mut rng),
        FileMap::Other => {
            let at = rng.usize(0..original.len().max(1));
            generic(original, at, &mut rng)
        }
    }
}

/// Boundary values for words of `word` bytes.
fn boundary_word(word: usize, len: usize, rng: &mut fastrand::Rng) -> u64 {
    let values: [u64; 14] = [
        0,
        1,
        2,
        u64::MAX,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_ffff,
        0x7fff_ffff_ffff_ffff,
        0x8000_0000_0000_0000,
        8,
        64,
        len as u64,
        (len as u64) / word as u64 + 1,
        1 << 40,
    ];
    values[rng.usize(0..values.len())]
}

fn word_bytes(value: u64, word: usize) -> Vec<u8> {
    value.to_le_bytes()[..word].to_vec()
}

const BOUNDARY_BYTES: [u8; 6] = [0, 1, 0x7f, 0x80, 0xfe, 0xff];

/// A mutation not aware of the format, at (or near) `at`.
fn generic(original: &[u8], at: usize, rng: &mut fastrand::Rng) -> Mutant {
    let len = original.len();
    let at = at.min(len.saturating_sub(1));
    match rng.u8(0..20) {
        0..=5 => Mutant {
            kind: "bit flip",
            edit: Edit::Write {
                at,
                bytes: vec![original.get(at).copied().unwrap_or(0) ^ (1 << rng.u8(0..8))],
            },
        },
        6..=8 => Mutant {
            kind: "byte boundary",
            edit: Edit::Write {
                at,
                bytes: vec![BOUNDARY_BYTES[rng.usize(0..BOUNDARY_BYTES.len())]],
            },
        },
        9..=15 => {
            let w = if rng.bool() { 4 } else { 8 };
            let at = at & !(w - 1);
            Mutant {
                kind: if w == 4 {
                    "word32 boundary"
                } else {
                    "word64 boundary"
                },
                edit: Edit::Write {
                    at,
                    bytes: word_bytes(boundary_word(w, len, rng), w),
                },
            }
        }
        16 | 17 => Mutant {
            kind: "copy range",
            edit: Edit::Copy {
                from: rng.usize(0..len.max(1)),
                to: at,
                len: rng.usize(1..=256),
            },
        },
        _ => {
            let n = rng.usize(1..=128);
            Mutant {
                kind: "swap ranges",
                edit: Edit::Swap {
                    a: at,
                    b: rng.usize(0..len.max(1)),
                    len: n,
                },
            }
        }
    }
}

fn memory_mutant(original: &[u8], heap: &HeapMap, word: usize, rng: &mut fastrand::Rng) -> Mutant {
    let len = original.len();
    let objects = &heap.objects;
    if objects.is_empty() || rng.bool() {
        // Generic, mostly inside objects, some in the statics, some anywhere.
        let at = match rng.u8(0..20) {
            0..=11 if !objects.is_empty() => {
                let o = &objects[rng.usize(0..objects.len())];
                o.addr as usize + rng.usize(0..(o.size as usize).max(1))
            }
            12..=14 if heap.start > 0 => rng.usize(0..heap.start as usize),
            _ => rng.usize(0..len.max(1)),
        };
        return generic(original, at, rng);
    }
    let skew = |addr: u64| addr.wrapping_sub(1);
    let write = |at: u64, value: u64| Edit::Write {
        at: at as usize,
        bytes: word_bytes(value, word),
    };
    let pick = |rng: &mut fastrand::Rng| &objects[rng.usize(0..objects.len())];
    let slots = &heap.pointer_slots;
    let slot = |rng: &mut fastrand::Rng| {
        if !heap.root_slots.is_empty() && rng.u8(0..8) == 0 {
            (heap.root_slots[rng.usize(0..heap.root_slots.len())], None)
        } else if !slots.is_empty() {
            let (at, owner) = slots[rng.usize(0..slots.len())];
            (at, Some(owner))
        } else {
            let o = &objects[rng.usize(0..objects.len())];
            (o.addr + word as u64, Some(o.addr))
        }
    };
    match rng.u8(0..16) {
        0..=1 => {
            let (at, _) = slot(rng);
            Mutant {
                kind: "pointer->other object",
                edit: write(at, skew(pick(rng).addr)),
            }
        }
        2..=3 => {
            let (at, _) = slot(rng);
            let o = pick(rng);
            let words = (o.size / word as u64).max(2);
            let inside = o.addr + word as u64 * rng.u64(1..words);
            Mutant {
                kind: "pointer->mid-object",
                edit: write(at, skew(inside)),
            }
        }
        4 => {
            let (at, _) = slot(rng);
            let targets = [
                len as u64 + 1,
                (len as u64 + 4096) | 1,
                heap.end | 1,
                u64::MAX,
                0xffff_ffff,
                0x7fff_ffff,
                0xffff_ffff_ffff_fff1,
                (len as u64).wrapping_sub(word as u64) | 1,
            ];
            Mutant {
                kind: "pointer->out of bounds",
                edit: write(at, targets[rng.usize(0..targets.len())]),
            }
        }
        5..=6 => {
            let (at, owner) = slot(rng);
            let target = owner.unwrap_or_else(|| pick(rng).addr);
            Mutant {
                kind: "pointer->self (cycle)",
                edit: write(at, skew(target)),
            }
        }
        7 => {
            // A back edge: an object the slot's owner points to points back at the owner.
            let (at, owner) = slot(rng);
            let edit = match owner.and_then(|o| heap.back_edge(o, at)) {
                Some((back_slot, to)) => write(back_slot, skew(to)),
                None => write(at, skew(pick(rng).addr)),
            };
            Mutant {
                kind: "pointer back edge (cycle)",
                edit,
            }
        }
        8 => {
            let (at, _) = slot(rng);
            let values = [0u64, 1, 2, 0xffff_ffff_ffff_fffb, 0xffff_fffb, 3];
            Mutant {
                kind: "pointer->scalar/null",
                edit: write(at, values[rng.usize(0..values.len())]),
            }
        }
        9..=11 => {
            let o = pick(rng);
            let tag = if rng.u8(0..4) == 0 {
                [0u64, 2, 53, 0xff, u64::MAX, 0x8000_0000][rng.usize(0..6)]
            } else {
                u64::from(rng.u8(0..26)) * 2 + 1
            };
            Mutant {
                kind: "tag change",
                edit: write(o.addr, tag),
            }
        }
        _ => {
            let o = pick(rng);
            let at = o.length_slot.unwrap_or(o.addr + heap.header);
            let words = o.size / word as u64;
            let values = [
                0u64,
                1,
                words,
                words + 1,
                words * 2,
                o.size + 1,
                0x7fff_ffff,
                0x8000_0000,
                0xffff_ffff,
                u64::MAX,
                0x7fff_ffff_ffff_ffff,
                len as u64,
                (len as u64) / word as u64,
            ];
            Mutant {
                kind: "length boundary",
                edit: write(at, values[rng.usize(0..values.len())]),
            }
        }
    }
}

const JSON_BYTES: &[u8] = b"0123456789-+{}[]\":,.eE \n\\tfnu";

fn metadata_mutant(original: &[u8], numbers: &[(usize, usize)], rng: &mut fastrand::Rng) -> Mutant {
    let len = original.len();
    match rng.u8(0..10) {
        0..=3 if !numbers.is_empty() => {
            let (at, n) = numbers[rng.usize(0..numbers.len())];
            let values: [&[u8]; 14] = [
                b"0",
                b"1",
                b"-1",
                b"4294967295",
                b"4294967296",
                b"2147483647",
                b"-2147483648",
                b"18446744073709551615",
                b"18446744073709551616",
                b"9223372036854775807",
                b"-9223372036854775808",
                b"1e308",
                b"1.5",
                b"99999999999999999999999999999999",
            ];
            Mutant {
                kind: "json number boundary",
                edit: Edit::Splice {
                    at,
                    remove: n,
                    insert: values[rng.usize(0..values.len())].to_vec(),
                },
            }
        }
        4..=6 => Mutant {
            kind: "json byte",
            edit: Edit::Write {
                at: rng.usize(0..len.max(1)),
                bytes: vec![JSON_BYTES[rng.usize(0..JSON_BYTES.len())]],
            },
        },
        _ => {
            let at = rng.usize(0..len.max(1));
            generic(original, at, rng)
        }
    }
}
