//! Whether a value changed between two snapshots: the two canonical walks side by side,
//! stopping at the first part that differs (objects move between snapshots, so values are
//! compared by meaning, never by address), and a value's fingerprint (the 128-bit hash of its walk)
//! for comparing many entries of a collection.

use siphasher::sip128::{Hasher128, SipHasher13};

use crate::heap::value::{Decoder, LazyValue};

use super::canon::{same_part, CanonWalk, WalkStop};

/// How a value compares with its counterpart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueChange {
    /// Equal part for part.
    Same,
    /// Different; `at` is the path inside the value to the first difference (`""`: the
    /// value itself, `.name`, `[3]`, …).
    Changed {
        /// The path from the value to the first part that differs.
        at: String,
    },
    /// Not compared to the end.
    Unknown(WalkStop),
}

impl ValueChange {
    /// `Some(true)` if changed, `Some(false)` if not, `None` if unknown.
    pub fn changed(&self) -> Option<bool> {
        match self {
            ValueChange::Same => Some(false),
            ValueChange::Changed { .. } => Some(true),
            ValueChange::Unknown(_) => None,
        }
    }
}

/// Compares `old` (read by `old_dec`) with `new` (read by `new_dec`), reading at most
/// `budget` parts of each.
pub fn compare(
    old_dec: &mut Decoder<'_>,
    old: LazyValue,
    new_dec: &mut Decoder<'_>,
    new: LazyValue,
    budget: u64,
) -> ValueChange {
    let mut a = CanonWalk::new(old_dec, old, budget);
    let mut b = CanonWalk::new(new_dec, new, budget);
    loop {
        let (x, y) = match (a.next_part(), b.next_part()) {
            (Ok(x), Ok(y)) => (x, y),
            (Err(e), _) | (_, Err(e)) => return ValueChange::Unknown(e),
        };
        match (&x, &y) {
            (None, None) => return ValueChange::Same,
            (Some(x), Some(y)) if same_part(x, y) => {}
            _ => return ValueChange::Changed { at: b.path() },
        }
    }
}

/// A 128-bit hash of `v`'s canonical walk and the parts it read: equal values have equal
/// fingerprints (different values collide with probability about 2^-128). Streaming: no
/// head is built, leaves are written into one reused buffer.
pub fn fingerprint(
    dec: &mut Decoder<'_>,
    v: LazyValue,
    budget: u64,
) -> Result<(u128, u64), WalkStop> {
    let mut h = SipHasher13::new();
    let mut buf = String::new();
    let mut walk = CanonWalk::new(dec, v, budget);
    while walk.hash_next(&mut h, &mut buf)? {}
    Ok((h.finish128().as_u128(), walk.parts()))
}

/// Parts of the old value sent from its walk's thread in one message.
const PIPE_BATCH: usize = 4096;
/// Batches in flight between the two walks (bounds the memory the pipe holds).
const PIPE_DEPTH: usize = 4;

/// [`compare`] with the old value's walk on a thread of its own, its parts sent to the
/// comparison in batches while this thread walks the new value: the same answer (each part
/// of each walk is the same, compared in the same order; the first of two errors at one step
/// is the old walk's), in about half the time on two cores.
pub fn compare_on_two_threads(
    old_dec: &mut Decoder<'_>,
    old: LazyValue,
    new_dec: &mut Decoder<'_>,
    new: LazyValue,
    budget: u64,
) -> ValueChange {
    type Step = Result<Option<super::canon::CanonPart>, WalkStop>;
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<Step>>(PIPE_DEPTH);
        let walker = scope.spawn(move || {
            let mut a = CanonWalk::new(old_dec, old, budget);
            loop {
                let mut batch = Vec::with_capacity(PIPE_BATCH);
                let mut ended = false;
                while !ended && batch.len() < PIPE_BATCH {
                    let step = a.next_part();
                    ended = !matches!(step, Ok(Some(_)));
                    batch.push(step);
                }
                // the comparison stopped listening, or the walk ended
                if tx.send(batch).is_err() || ended {
                    return;
                }
            }
        });
        let mut b = CanonWalk::new(new_dec, new, budget);
        let mut parts = Vec::new().into_iter();
        let change = loop {
            let x = match parts.next() {
                Some(x) => x,
                None => match rx.recv() {
                    Ok(batch) => {
                        parts = batch.into_iter();
                        continue;
                    }
                    // the walker ended without its last step: only a panic does that,
                    // which joining it below passes on
                    Err(_) => break None,
                },
            };
            let (x, y) = match (x, b.next_part()) {
                (Ok(x), Ok(y)) => (x, y),
                (Err(e), _) | (_, Err(e)) => break Some(ValueChange::Unknown(e)),
            };
            match (&x, &y) {
                (None, None) => break Some(ValueChange::Same),
                (Some(x), Some(y)) if same_part(x, y) => {}
                _ => break Some(ValueChange::Changed { at: b.path() }),
            }
        };
        drop(rx);
        match walker.join() {
            Ok(()) => change.unwrap_or(ValueChange::Unknown(WalkStop::Budget(budget))),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}
