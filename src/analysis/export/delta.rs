//! Integers as Parquet's DELTA_BINARY_PACKED encoding: a header (block size 128, 4 miniblocks
//! of 32, the value count, the first value), then per block of 128 differences between
//! consecutive values their minimum and, per miniblock, the differences above it bit-packed at
//! the width of the largest. The export's columns are mostly small or slowly rising numbers
//! (addresses in address order, sizes, retained figures of leaves), so this writes 1 to 2 bytes
//! per value instead of 8: the file, which the kernel copies into the page cache at a cost per
//! byte, is about a third of the PLAIN one.

/// Values per block.
const BLOCK: usize = 128;
/// Values per miniblock.
const MINI: usize = 32;

/// One page's values being encoded.
pub struct DeltaPacker {
    blocks: Vec<u8>,
    deltas: [i64; BLOCK],
    pending: usize,
    first: i64,
    last: i64,
    count: u64,
}

/// Zigzag: small negative and positive numbers become small unsigned ones.
#[inline]
fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

impl DeltaPacker {
    /// An empty stream, room kept for about `values` values.
    pub fn new(values: usize) -> DeltaPacker {
        DeltaPacker {
            blocks: Vec::with_capacity(values * 2),
            deltas: [0; BLOCK],
            pending: 0,
            first: 0,
            last: 0,
            count: 0,
        }
    }

    /// Adds the next value.
    #[inline]
    pub fn push(&mut self, v: i64) {
        if self.count == 0 {
            self.first = v;
        } else {
            self.deltas[self.pending] = v.wrapping_sub(self.last);
            self.pending += 1;
            if self.pending == BLOCK {
                self.flush_block();
            }
        }
        self.last = v;
        self.count += 1;
    }

    fn flush_block(&mut self) {
        let k = self.pending;
        if k == 0 {
            return;
        }
        let deltas = &self.deltas[..k];
        let min = deltas.iter().copied().min().unwrap_or(0);
        uleb(zigzag(min), &mut self.blocks);
        let widths = self.blocks.len();
        // Every miniblock's width byte is present, zero for the unused ones.
        self.blocks.extend_from_slice(&[0; BLOCK / MINI]);
        for (m, mini) in deltas.chunks(MINI).enumerate() {
            let or = mini
                .iter()
                .fold(0u64, |acc, &d| acc | d.wrapping_sub(min) as u64);
            let width = u64::BITS - or.leading_zeros();
            self.blocks[widths + m] = width as u8;
            if width == 0 {
                continue;
            }
            // 32 values of `width` bits, the missing ones zero: 4 * width bytes.
            let (mut acc, mut bits) = (0u128, 0u32);
            for j in 0..MINI {
                let v = mini.get(j).map_or(0, |&d| d.wrapping_sub(min) as u64);
                acc |= (v as u128) << bits;
                bits += width;
                if bits >= 64 {
                    self.blocks.extend_from_slice(&(acc as u64).to_le_bytes());
                    acc >>= 64;
                    bits -= 64;
                }
            }
            self.blocks
                .extend_from_slice(&(acc as u64).to_le_bytes()[..(bits / 8) as usize]);
        }
        self.pending = 0;
    }

    /// Appends the encoded stream to `out`.
    pub fn finish(mut self, out: &mut Vec<u8>) {
        self.flush_block();
        uleb(BLOCK as u64, out);
        uleb((BLOCK / MINI) as u64, out);
        uleb(self.count, out);
        uleb(zigzag(self.first), out);
        out.extend_from_slice(&self.blocks);
    }
}

/// Appends `v` as an unsigned LEB128 varint (the RLE/bit-packing hybrid's run headers, the
/// delta encoding's numbers).
pub(super) fn uleb(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uleb_at(bytes: &[u8], at: &mut usize) -> u64 {
        let (mut v, mut shift) = (0u64, 0);
        loop {
            let b = bytes[*at];
            *at += 1;
            v |= ((b & 0x7f) as u64) << shift;
            shift += 7;
            if b < 0x80 {
                return v;
            }
        }
    }

    /// A second, naive reading of the format, bit by bit.
    fn decode(bytes: &[u8]) -> Vec<i64> {
        let mut at = 0;
        let unzig = |v: u64| (v >> 1) as i64 ^ -((v & 1) as i64);
        let block = uleb_at(bytes, &mut at) as usize;
        let minis = uleb_at(bytes, &mut at) as usize;
        let count = uleb_at(bytes, &mut at) as usize;
        let mut out = vec![unzig(uleb_at(bytes, &mut at))];
        let per_mini = block / minis;
        while out.len() < count {
            let min = unzig(uleb_at(bytes, &mut at));
            let widths: Vec<u32> = bytes[at..at + minis].iter().map(|&w| w as u32).collect();
            at += minis;
            for w in widths {
                if out.len() >= count {
                    break;
                }
                let mut bit = at * 8;
                for _ in 0..per_mini {
                    let mut v = 0u64;
                    for b in 0..w {
                        let set = bytes[bit / 8] >> (bit % 8) & 1;
                        v |= (set as u64) << b;
                        bit += 1;
                    }
                    if out.len() < count {
                        let prev = *out.last().unwrap();
                        out.push(prev.wrapping_add(min.wrapping_add(v as i64)));
                    }
                }
                at += per_mini * w as usize / 8;
            }
        }
        out
    }

    fn round_trip(values: &[i64]) {
        let mut p = DeltaPacker::new(values.len());
        values.iter().for_each(|&v| p.push(v));
        let mut out = Vec::new();
        p.finish(&mut out);
        if values.is_empty() {
            assert_eq!(out, [128, 1, 4, 0, 0]);
        } else {
            assert_eq!(decode(&out), values);
        }
    }

    #[test]
    fn values_read_back_with_a_naive_decoder() {
        round_trip(&[]);
        round_trip(&[7]);
        round_trip(&[-3, 5]);
        // Rising addresses, sizes, a wide outlier, the extremes (wrapping differences).
        let rising: Vec<i64> = (0..1000).map(|k| 0x1000 + 24 * k + (k % 3) * 8).collect();
        round_trip(&rising);
        let mut mixed: Vec<i64> = (0..777).map(|k| (k * 7919) % 97).collect();
        mixed[300] = i64::MAX;
        mixed[301] = i64::MIN;
        mixed[500] = -1;
        round_trip(&mixed);
        let constant = vec![42i64; 300];
        round_trip(&constant);
    }
}
