//! Flame graph SVGs drawn by `inferno` from folded stacks ([`FrameTree`], built once per picture): the retained memory of one
//! snapshot as an icicle (roots on top), and the differential picture of two snapshots
//! (frame widths from the newer one; grown frames red, shrunk ones blue, as inferno's
//! differential flame graphs colour them). Both keep inferno's script: a click zooms into a
//! frame, `Ctrl-F` searches frame names.

use inferno::flamegraph::color::{BasicPalette, Palette};
use inferno::flamegraph::{self, Direction};
use std::sync::Arc;

use super::super::graph::GraphError;
use super::super::{HeapAnalysis, OpenedHeap};
use super::fold::{FoldOptions, FrameTree, DEFAULT_MAX_FRAMES};

/// The largest SVG written: the frames printed are halved until the picture fits.
pub const MAX_SVG_BYTES: usize = 2 << 20;

/// The title of the retained-memory icicle the mount and `mo-mem retained --svg` draw.
pub const RETAINED_TITLE: &str = "Retained memory";

/// The fewest frames printed when shrinking a picture to [`MAX_SVG_BYTES`].
const MIN_FRAMES: usize = 16;

/// Why a flame graph could not be drawn.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FlameError {
    /// The heap analysis failed.
    #[error("heap analysis: {0}")]
    Analysis(#[from] GraphError),
    /// `inferno` refused the stacks.
    #[error("drawing the flame graph: {0}")]
    Draw(#[source] std::io::Error),
    /// Even the smallest picture is larger than [`MAX_SVG_BYTES`].
    #[error("flame graph of {bytes} bytes exceeds the limit of {MAX_SVG_BYTES}")]
    TooLarge {
        /// The size of the smallest picture.
        bytes: usize,
    },
}

/// The icicle of `opened`'s retained memory (`a` is its analysis), titled `title`.
pub fn retained_svg(
    opened: &OpenedHeap,
    a: &HeapAnalysis,
    title: &str,
) -> Result<Vec<u8>, FlameError> {
    let live = a.live();
    let subtitle = format!(
        "{} live objects, {} bytes; width = retained bytes; click to zoom, Ctrl-F to search",
        live.objects, live.bytes
    );
    let tree = FrameTree::build(opened, a);
    fit(|max_frames| {
        let stacks = tree.stacks(
            opened,
            a,
            FoldOptions {
                max_frames,
                counts: true,
            },
        );
        draw(title, &subtitle, &stacks.text())
    })
}

/// The differential icicle from `old` to `new` (two snapshots of one canister, each analysed
/// now if it was not): frames are matched by path and type, their widths are `new`'s retained
/// bytes, red where they grew and blue where they shrank (a frame gone in `new` has no width).
pub fn diff_svg(old: &OpenedHeap, new: &OpenedHeap) -> Result<Vec<u8>, FlameError> {
    let (a_old, a_new) = (analysis(old)?, analysis(new)?);
    let (a_old, a_new) = (&*a_old, &*a_new);
    let subtitle = format!(
        "live bytes {} -> {}; red grew, blue shrank; click to zoom, Ctrl-F to search",
        a_old.live().bytes,
        a_new.live().bytes
    );
    let (tree_old, tree_new) = (FrameTree::build(old, a_old), FrameTree::build(new, a_new));
    fit(|max_frames| {
        let options = FoldOptions {
            max_frames,
            counts: false,
        };
        let before = tree_old.stacks(old, a_old, options).text();
        let after = tree_new.stacks(new, a_new, options).text();
        let mut folded = Vec::new();
        inferno::differential::from_readers(
            inferno::differential::Options::default(),
            before.as_bytes(),
            after.as_bytes(),
            &mut folded,
        )
        .map_err(FlameError::Draw)?;
        // inferno merges frames of adjacent lines only: sort what the differential wrote.
        let folded = String::from_utf8_lossy(&folded);
        let mut lines: Vec<&str> = folded.lines().collect();
        lines.sort_unstable();
        draw("Retained memory: difference", &subtitle, &lines.join("\n"))
    })
}

fn analysis(opened: &OpenedHeap) -> Result<Arc<HeapAnalysis>, FlameError> {
    opened.analysis().map_err(FlameError::Analysis)
}

/// The picture `draw(max_frames)` makes with the most frames that fit in [`MAX_SVG_BYTES`].
fn fit(draw: impl Fn(usize) -> Result<Vec<u8>, FlameError>) -> Result<Vec<u8>, FlameError> {
    let mut frames = DEFAULT_MAX_FRAMES;
    loop {
        let svg = draw(frames)?;
        if svg.len() <= MAX_SVG_BYTES {
            return Ok(svg);
        }
        if frames <= MIN_FRAMES {
            return Err(FlameError::TooLarge { bytes: svg.len() });
        }
        frames /= 2;
    }
}

/// The SVG of folded stacks (one or two weights per line).
fn draw(title: &str, subtitle: &str, folded: &str) -> Result<Vec<u8>, FlameError> {
    let mut options = flamegraph::Options::default();
    options.title = title.to_string();
    options.subtitle = Some(subtitle.to_string());
    options.count_name = "bytes".to_string();
    options.name_type = "Frame:".to_string();
    options.direction = Direction::Inverted;
    options.colors = Palette::Basic(BasicPalette::Mem);
    options.hash = true;
    let mut svg = Vec::new();
    if folded.trim().is_empty() {
        // inferno refuses an empty profile: draw one empty frame instead
        flamegraph::from_lines(&mut options, ["(empty heap) 1"], &mut svg)
            .map_err(FlameError::Draw)?;
        return Ok(svg);
    }
    flamegraph::from_lines(&mut options, folded.lines(), &mut svg).map_err(FlameError::Draw)?;
    Ok(svg)
}
