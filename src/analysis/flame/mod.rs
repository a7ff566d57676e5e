//! Flame graphs of retained memory: the dominator tree folded into stacks of frames by Motoko
//! access path from the roots ([`fold`]), and the SVGs drawn from them with `inferno`
//! ([`svg`]): the retained memory of one snapshot as an icicle, and the differential picture
//! of two snapshots (grown red, shrunk blue).

mod addresses;
pub mod fold;
mod parents;
pub mod step;
pub mod svg;

pub use fold::{FoldOptions, FoldedStacks, FrameTree, DEFAULT_MAX_FRAMES};
pub use svg::{diff_svg, retained_svg, FlameError, MAX_SVG_BYTES, RETAINED_TITLE};
