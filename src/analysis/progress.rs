//! How a long analysis reports its progress: the phases it goes through and how far each
//! has come. The library only calls this trait; a front-end draws it (the command line with
//! `indicatif` bars on a terminal), so the analysis layer carries no display crate.

/// A step of the heap analysis, in the order they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The linear walk of the heap (counted in bytes of the walked ranges).
    Walk,
    /// The references of every object (counted in objects).
    Graph,
    /// Dominators and retained sizes (no count: one pass over the reachable graph).
    Dominators,
    /// Labelling every live object with its type (counted in objects).
    Types,
    /// Comparing the stable variables' values of two snapshots (counted in variables).
    Compare,
}

impl Phase {
    /// The phase's name as a progress display shows it.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Walk => "walk",
            Phase::Graph => "graph",
            Phase::Dominators => "dominators",
            Phase::Types => "types",
            Phase::Compare => "compare",
        }
    }
}

/// Receives an analysis' progress. Calls come from the thread running the analysis, in
/// order: `start` of a phase, any number of `at` with a growing count, then `finish`.
pub trait Progress: Sync {
    /// `phase` begins; `total` is the count it goes up to, if known.
    fn start(&self, phase: Phase, total: Option<u64>);
    /// The current phase has come to `done` (of its total).
    fn at(&self, done: u64);
    /// `phase` is over.
    fn finish(&self, phase: Phase);
}

/// No progress display.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn start(&self, _phase: Phase, _total: Option<u64>) {}
    fn at(&self, _done: u64) {}
    fn finish(&self, _phase: Phase) {}
}

/// How often (in objects or bytes) a phase reports its count: rarely enough to cost nothing
/// in a loop over objects.
pub const REPORT_EVERY: u64 = 1 << 16;

/// A counter that reports to a [`Progress`] every [`REPORT_EVERY`] units.
pub struct Ticker<'a> {
    progress: &'a dyn Progress,
    done: u64,
    reported: u64,
}

impl<'a> Ticker<'a> {
    /// Starts `phase` on `progress`.
    pub fn start(progress: &'a dyn Progress, phase: Phase, total: Option<u64>) -> Ticker<'a> {
        progress.start(phase, total);
        Ticker {
            progress,
            done: 0,
            reported: 0,
        }
    }

    /// Counts `n` more units.
    #[inline]
    pub fn add(&mut self, n: u64) {
        self.done = self.done.saturating_add(n);
        if self.done - self.reported >= REPORT_EVERY {
            self.reported = self.done;
            self.progress.at(self.done);
        }
    }

    /// Reports the final count and ends `phase`.
    pub fn finish(self, phase: Phase) {
        self.progress.at(self.done);
        self.progress.finish(phase);
    }
}
