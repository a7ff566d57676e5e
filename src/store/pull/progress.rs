//! How a pull reports its progress: a trait the front-end implements (the CLI with a progress
//! bar), so that the download itself draws nothing.

/// Receives a pull's progress, in bytes.
pub trait Progress: Send + Sync {
    /// The pull knows its total, and how much an earlier run had done.
    fn start(&self, total: u64, done: u64);
    /// `bytes` more were written and recorded.
    fn advance(&self, bytes: u64);
    /// The total grew by `bytes` (a chunk-store entry, whose size is known once read).
    fn grow(&self, bytes: u64);
    /// The pull is complete.
    fn finish(&self);
}

/// Progress nobody watches.
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl Progress for Silent {
    fn start(&self, _: u64, _: u64) {}
    fn advance(&self, _: u64) {}
    fn grow(&self, _: u64) {}
    fn finish(&self) {}
}
