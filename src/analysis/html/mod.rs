//! Self-contained HTML reports: `mo-mem report --html` (also the mount's
//! `analysis/report.html`, the same bytes) and `mo-mem diff --html`. One file each, opened
//! from disk offline: inline style and script, the flame graph inlined as an SVG element, no
//! reference to anything outside the file (a Content Security Policy forbids every fetch and
//! every script but the page's own two). Every string from the heap is escaped
//! ([`escape::escape`]); tables are capped at [`table::MAX_ROWS`] rows (the page says so) and
//! the flame graph at [`crate::analysis::flame::MAX_SVG_BYTES`], so a page stays within
//! [`MAX_HTML_BYTES`] on any heap.
//!
//! - [`report`], [`diff`]: the two pages' sections;
//! - [`findings`]: the place of the heap doctor's findings (to come);
//! - [`page`], [`table`], [`inline`], [`escape`]: the document, sortable tables, the flame
//!   graph made an element, escaping.

pub mod diff;
pub mod escape;
pub mod findings;
pub mod inline;
pub mod page;
pub mod report;
pub mod table;

pub use diff::diff_html;
pub use findings::Finding;
pub use report::{report_html, report_page};

use crate::analysis::flame::FlameError;

/// The largest page either command writes: the flame graph's 2 MB and the tables' (at most
/// [`table::MAX_ROWS`] rows of cells of at most [`table::MAX_CELL_CHARS`] characters: well
/// under 1 MB on ordinary heaps, under 3 MB even if every character were a quote).
pub const MAX_HTML_BYTES: usize = 5 << 20;

/// Why a page could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HtmlError {
    /// The flame graph could not be drawn.
    #[error("{0}")]
    Flame(#[from] FlameError),
    /// inferno's picture is not what the page can inline.
    #[error("flame graph SVG: {0}")]
    Svg(&'static str),
    /// The page is larger than [`MAX_HTML_BYTES`].
    #[error("the page of {bytes} bytes exceeds the limit of {MAX_HTML_BYTES}")]
    TooLarge {
        /// Its size.
        bytes: usize,
    },
}
