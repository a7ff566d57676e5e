//! The files of a snapshot's `analysis/` directory (the vfs's [`crate::vfs::analysis_dir`]
//! lists them): what holds the memory, from the heap analysis cached
//! with the opened snapshot (computed on the first access to one of its files, once for the
//! mount, the `eval` file and every other reader).
//!
//! Each file is exactly what a command prints: `retained.json` is `mo-mem retained --json`,
//! `report.txt` is `mo-mem report`; `types.json`, `top.json` and `garbage.json` are the
//! `types` (every type), `top` and `garbage` parts of `mo-mem retained --by type --json`;
//! `retained.svg` is the flame graph `mo-mem retained --svg FILE` writes.

use crate::analysis::flame::{retained_svg, RETAINED_TITLE};
use crate::analysis::report::MemoryReport;
use crate::analysis::retained_json::{
    garbage_json, pretty, top_json, types_json, RetainedJson, DEFAULT_TOP,
};
use crate::analysis::{HeapAnalysis, OpenedHeap};
use crate::vfs::VfsError;

/// The files of `analysis/`, in listing order.
pub const ANALYSIS_FILES: [&str; 6] = [
    "garbage.json",
    "report.txt",
    "retained.json",
    "retained.svg",
    "top.json",
    "types.json",
];

/// The content of `analysis/NAME` for `opened` (its analysis computed now if it was not).
pub fn analysis_file(opened: &OpenedHeap, name: &str) -> Result<Vec<u8>, VfsError> {
    let what = format!("analysis/{name}");
    let a: &HeapAnalysis = opened
        .analysis()
        .map_err(|e| VfsError::TooLarge(format!("{what}: {e}")))?;
    let json = |value: Result<Vec<u8>, serde_json::Error>| {
        value.map_err(|e| VfsError::decode(&what, e.to_string()))
    };
    match name {
        "retained.json" => json(pretty(&RetainedJson::new(opened, a, DEFAULT_TOP))),
        "types.json" => json(pretty(&types_json(opened, a, None))),
        "top.json" => json(pretty(&top_json(opened, a, DEFAULT_TOP))),
        "garbage.json" => json(pretty(&garbage_json(a))),
        "report.txt" => Ok(MemoryReport::new(opened, a).text().into_bytes()),
        "retained.svg" => retained_svg(opened, a, RETAINED_TITLE)
            .map_err(|e| VfsError::decode(&what, e.to_string())),
        _ => Err(VfsError::NotFound(what)),
    }
}
