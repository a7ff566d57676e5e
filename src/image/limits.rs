//! [`ReaderLimits`] and the work [`Budget`] shared by walks and decoders.

use super::{ImageError, LimitKind};

/// Explicit limits for reading an untrusted image, checked before the work or the allocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReaderLimits {
    /// Maximum number of objects a walk or a decoder visits. Default 2^32.
    pub max_objects: u64,
    /// Maximum bytes one text or blob value may take rendered (a text's JSON form with its
    /// escapes; three bytes per blob byte, `debug_show`'s `\XX`). Default 64 MiB.
    pub max_text_bytes: u64,
    /// Maximum nesting depth of a decoded value. Default 10 000.
    pub max_depth: u32,
    /// Maximum depth of a text concatenation rope (decoded with an explicit stack). Default 1 000 000.
    pub max_rope_depth: u32,
    /// Maximum total work steps (one step is about one word read). Default 2^36.
    pub max_work: u64,
    /// Whether a snapshot directory whose download (icp-cli, dfx, mo-mem's pull) did not
    /// finish may be read anyway (`--force`), marked incomplete wherever it shows. Default
    /// false: such a directory is refused with what is missing.
    pub allow_unfinished: bool,
    /// Maximum number of heap objects the heap analysis (reference graph, dominators) takes;
    /// a larger heap is refused. Default (and most) [`MAX_ANALYSIS_OBJECTS`].
    pub max_analysis_objects: u64,
}

/// The most heap objects the analysis can take (its graph indexes nodes with `u32`, leaving
/// room for the virtual root and the root groups).
pub const MAX_ANALYSIS_OBJECTS: u64 = (u32::MAX - 1024) as u64;

impl Default for ReaderLimits {
    fn default() -> Self {
        ReaderLimits {
            max_objects: 1 << 32,
            max_text_bytes: 64 << 20,
            max_depth: 10_000,
            max_rope_depth: 1_000_000,
            max_work: 1 << 36,
            allow_unfinished: false,
            max_analysis_objects: MAX_ANALYSIS_OBJECTS,
        }
    }
}

impl ReaderLimits {
    /// Fails with a [`LimitKind::TextBytes`] error if `len` text/blob bytes may not be rendered.
    #[inline]
    pub fn check_text_bytes(&self, len: u64, addr: u64) -> Result<(), ImageError> {
        check(len, self.max_text_bytes, LimitKind::TextBytes, addr)
    }

    /// Fails with a [`LimitKind::Depth`] error if `depth` exceeds the nesting limit.
    #[inline]
    pub fn check_depth(&self, depth: u32, addr: u64) -> Result<(), ImageError> {
        check(
            u64::from(depth),
            u64::from(self.max_depth),
            LimitKind::Depth,
            addr,
        )
    }

    /// Fails with a [`LimitKind::RopeDepth`] error if `depth` exceeds the rope limit.
    #[inline]
    pub fn check_rope_depth(&self, depth: u32, addr: u64) -> Result<(), ImageError> {
        check(
            u64::from(depth),
            u64::from(self.max_rope_depth),
            LimitKind::RopeDepth,
            addr,
        )
    }
}

#[inline]
fn check(value: u64, max: u64, kind: LimitKind, addr: u64) -> Result<(), ImageError> {
    if value > max {
        Err(ImageError::Limit { kind, max, addr })
    } else {
        Ok(())
    }
}

/// A countdown of work steps and objects, shared by one walk or decoding session.
/// Every loop whose length comes from the image spends from it.
#[derive(Debug, Clone)]
pub struct Budget {
    work_left: u64,
    objects_left: u64,
    max_work: u64,
    max_objects: u64,
}

impl Budget {
    /// A budget with the work and object limits of `limits`.
    pub fn new(limits: &ReaderLimits) -> Budget {
        Budget {
            work_left: limits.max_work,
            objects_left: limits.max_objects,
            max_work: limits.max_work,
            max_objects: limits.max_objects,
        }
    }

    /// An effectively unlimited budget (for trusted, already-bounded loops and tests).
    pub fn unlimited() -> Budget {
        Budget {
            work_left: u64::MAX,
            objects_left: u64::MAX,
            max_work: u64::MAX,
            max_objects: u64::MAX,
        }
    }

    /// Spends `steps` work steps; `addr` names where, for the error.
    #[inline]
    pub fn spend(&mut self, steps: u64, addr: u64) -> Result<(), ImageError> {
        match self.work_left.checked_sub(steps) {
            Some(left) => {
                self.work_left = left;
                Ok(())
            }
            None => {
                self.work_left = 0;
                Err(ImageError::Limit {
                    kind: LimitKind::Work,
                    max: self.max_work,
                    addr,
                })
            }
        }
    }

    /// Counts one more object (and one work step) if both remain, else changes nothing and
    /// returns `false` (then [`Budget::object`] reports which limit ran out).
    #[inline(always)]
    pub fn take_object(&mut self) -> bool {
        if self.objects_left == 0 || self.work_left == 0 {
            return false;
        }
        self.objects_left -= 1;
        self.work_left -= 1;
        true
    }

    /// Counts one more object visited at `addr` (also one work step).
    #[inline]
    pub fn object(&mut self, addr: u64) -> Result<(), ImageError> {
        match self.objects_left.checked_sub(1) {
            Some(left) => self.objects_left = left,
            None => {
                return Err(ImageError::Limit {
                    kind: LimitKind::Objects,
                    max: self.max_objects,
                    addr,
                })
            }
        }
        self.spend(1, addr)
    }

    /// Work steps spent so far.
    pub fn work_used(&self) -> u64 {
        self.max_work - self.work_left
    }

    /// Objects counted so far.
    pub fn objects_used(&self) -> u64 {
        self.max_objects - self.objects_left
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_runs_out() {
        let limits = ReaderLimits {
            max_work: 3,
            max_objects: 2,
            ..ReaderLimits::default()
        };
        let mut b = Budget::new(&limits);
        assert!(b.object(1).is_ok());
        assert!(b.object(2).is_ok());
        assert!(matches!(
            b.object(3),
            Err(ImageError::Limit {
                kind: LimitKind::Objects,
                ..
            })
        ));
        assert!(b.spend(1, 0).is_ok());
        assert!(b.spend(1, 0).is_err());
        assert!(limits.check_depth(10_001, 0).is_err());
    }
}
