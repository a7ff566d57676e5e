//! The heap analysis' progress on the terminal: when stderr is a terminal and the analysis
//! takes more than a second, an `indicatif` bar per phase (walk, graph, dominators, types),
//! as `mo-mem pull` shows its download.

use std::io::IsTerminal;
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mo_mem::analysis::progress::{Phase, Progress};
use mo_mem::analysis::{HeapAnalysis, OpenedHeap};

use super::times::Started;

/// How long an analysis runs before its progress is shown.
const SHOW_AFTER: Duration = Duration::from_secs(1);

/// A progress bar drawn on stderr once [`SHOW_AFTER`] has passed (never if stderr is not a
/// terminal), cleared when dropped.
pub struct TerminalProgress {
    bar: ProgressBar,
    /// When the current phase began, if step timings are asked for (`MO_MEM_TIMES`): each
    /// phase's time is printed when it finishes (`mo-mem: time phase-dominators ...`; when
    /// two analyses share the bar, as `diff`'s do, a phase is timed from the latest start).
    phase_started: Mutex<Option<Started>>,
    /// Dropped when the work ends, which stops the thread that would show the bar.
    _running: Option<mpsc::Sender<()>>,
}

impl TerminalProgress {
    /// A bar for work starting now.
    pub fn new() -> TerminalProgress {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        if !std::io::stderr().is_terminal() {
            return TerminalProgress {
                bar,
                phase_started: Mutex::new(None),
                _running: None,
            };
        }
        let (running, stop) = mpsc::channel::<()>();
        let shown = bar.clone();
        std::thread::spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) = stop.recv_timeout(SHOW_AFTER) {
                shown.set_draw_target(ProgressDrawTarget::stderr());
                shown.enable_steady_tick(Duration::from_millis(100));
            }
        });
        TerminalProgress {
            bar,
            phase_started: Mutex::new(None),
            _running: Some(running),
        }
    }
}

impl Drop for TerminalProgress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// The bar's look in `phase`.
fn style(phase: Phase, counted: bool) -> ProgressStyle {
    let template = match (phase, counted) {
        (Phase::Walk, true) => {
            "{spinner} {prefix:<10} [{bar:40}] {binary_bytes}/{binary_total_bytes} ETA {eta}"
        }
        (_, true) => "{spinner} {prefix:<10} [{bar:40}] {human_pos}/{human_len} objects ETA {eta}",
        (_, false) => "{spinner} {prefix:<10} {elapsed}",
    };
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_spinner())
        .progress_chars("=> ")
}

impl Progress for TerminalProgress {
    fn start(&self, phase: Phase, total: Option<u64>) {
        *self.started() = Started::if_enabled();
        self.bar.set_style(style(phase, total.is_some()));
        self.bar.set_prefix(phase.name());
        self.bar.set_length(total.unwrap_or(0));
        self.bar.reset();
    }

    fn at(&self, done: u64) {
        self.bar.set_position(done);
    }

    fn finish(&self, phase: Phase) {
        if let Some(started) = self.started().take() {
            started.print(&format!("phase-{}", phase.name()));
        }
    }
}

impl TerminalProgress {
    /// When the current phase began (a poisoned lock still holds a time).
    fn started(&self) -> std::sync::MutexGuard<'_, Option<Started>> {
        self.phase_started
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The heap analysis of `opened` (computed now, with its progress on the terminal, or
/// already cached), with the per-type figures if `types`.
pub fn analyse(opened: &OpenedHeap, types: bool) -> anyhow::Result<Arc<HeapAnalysis>> {
    let progress = TerminalProgress::new();
    let a = opened
        .analysis_with(&progress)
        .context("cannot analyse the heap")?;
    if types {
        a.types_with(opened, &progress);
    }
    Ok(a)
}
