//! The files of a snapshot's `analysis/` directory (the vfs's [`crate::vfs::analysis_dir`]
//! lists them): what holds the memory, from the heap analysis cached
//! with the opened snapshot (computed on the first access to one of its files, once for the
//! mount, the `eval` file and every other reader).
//!
//! Each file is exactly what a command prints: `retained.json` is `mo-mem retained --json`,
//! `report.txt` is `mo-mem report`, `report.html` the page `mo-mem report --html FILE` writes;
//! `doctor.txt` and `doctor.json` are `mo-mem doctor` and `mo-mem doctor --json`; `types.json`, `top.json` and `garbage.json` are the
//! `types` (every type), `top` and `garbage` parts of `mo-mem retained --by type --json`;
//! `retained.svg` is the flame graph `mo-mem retained --svg FILE` writes.

use crate::analysis::doctor::DoctorReport;
use crate::analysis::flame::{retained_svg, RETAINED_TITLE};
use crate::analysis::html::report_page;
use crate::analysis::json::pretty;
use crate::analysis::progress::NoProgress;
use crate::analysis::report::MemoryReport;
use crate::analysis::retained_json::{
    garbage_json, top_json, types_json, RetainedJson, DEFAULT_TOP,
};
use crate::analysis::{HeapAnalysis, OpenedHeap};
use crate::vfs::{DecodeFailure, VfsError};
use std::cell::OnceCell;

/// The files of `analysis/`, in listing order.
pub const ANALYSIS_FILES: [&str; 9] = [
    "doctor.json",
    "doctor.txt",
    "garbage.json",
    "report.html",
    "report.txt",
    "retained.json",
    "retained.svg",
    "top.json",
    "types.json",
];

/// The content of `analysis/NAME` for `opened`, from its kept analysis (which is computed
/// now if it was not, and kept with the opened heap for its other readers).
pub fn analysis_file(opened: &OpenedHeap, name: &str) -> Result<Vec<u8>, VfsError> {
    let what = format!("analysis/{name}");
    let a = opened
        .analysis()
        .map_err(|e| VfsError::TooLarge(format!("{what}: {e}")))?;
    render(opened, &a, name)
}

/// `analysis/NAME` rendered from the analysis `a` of `opened`.
fn render(opened: &OpenedHeap, a: &HeapAnalysis, name: &str) -> Result<Vec<u8>, VfsError> {
    Rendering::new(opened, a).file(name)
}

/// The files of one analysis, rendering the parts several files share (the doctor's report,
/// the memory report, the retained flame graph) at most once.
struct Rendering<'h> {
    opened: &'h OpenedHeap,
    a: &'h HeapAnalysis,
    doctor: OnceCell<DoctorReport>,
    report: OnceCell<MemoryReport>,
    svg: OnceCell<Vec<u8>>,
}

impl<'h> Rendering<'h> {
    fn new(opened: &'h OpenedHeap, a: &'h HeapAnalysis) -> Rendering<'h> {
        Rendering {
            opened,
            a,
            doctor: OnceCell::new(),
            report: OnceCell::new(),
            svg: OnceCell::new(),
        }
    }

    fn doctor(&self) -> &DoctorReport {
        self.doctor
            .get_or_init(|| DoctorReport::new(self.opened, self.a))
    }

    fn report(&self) -> &MemoryReport {
        self.report
            .get_or_init(|| MemoryReport::with_doctor(self.opened, self.a, self.doctor()))
    }

    fn svg(&self, what: &str) -> Result<&[u8], VfsError> {
        if let Some(svg) = self.svg.get() {
            return Ok(svg);
        }
        let svg = retained_svg(self.opened, self.a, RETAINED_TITLE)
            .map_err(|e| VfsError::decode(what, DecodeFailure::render(e)))?;
        Ok(self.svg.get_or_init(|| svg))
    }

    /// `analysis/NAME`.
    fn file(&self, name: &str) -> Result<Vec<u8>, VfsError> {
        let (opened, a) = (self.opened, self.a);
        let what = format!("analysis/{name}");
        let json = |value: Result<Vec<u8>, serde_json::Error>| {
            value.map_err(|e| VfsError::decode(&what, DecodeFailure::render(e)))
        };
        match name {
            "retained.json" => json(pretty(&RetainedJson::new(opened, a, DEFAULT_TOP))),
            "types.json" => json(pretty(&types_json(opened, a, None))),
            "top.json" => json(pretty(&top_json(opened, a, DEFAULT_TOP))),
            "garbage.json" => json(pretty(&garbage_json(a))),
            "report.txt" => Ok(self.report().text().into_bytes()),
            "report.html" => {
                let svg = self.svg(&what)?;
                report_page(opened, a, self.report(), self.doctor(), svg)
                    .map_err(|e| VfsError::decode(&what, DecodeFailure::render(e)))
            }
            "doctor.txt" => Ok(self.doctor().text().into_bytes()),
            "doctor.json" => json(self.doctor().json()),
            "retained.svg" => Ok(self.svg(&what)?.to_vec()),
            _ => Err(VfsError::NotFound(what)),
        }
    }
}

/// The mount's `analysis/` files of one opened heap, made without keeping the analysis: the
/// first read of one computes the analysis (about 23 bytes per object while it exists),
/// renders all nine files, and drops it. Each file is handed out once, then held by the
/// vfs's content cache (in its budget, evicted least recently used first); a file read
/// again after its eviction computes the analysis again. What this holds between reads is
/// the files not read yet (kilobytes: the report, the top rows and every type's row; the
/// flame graph's boxes), or why the analysis failed. When a script already keeps the
/// opened heap's analysis ([`OpenedHeap::has_analysis`]), files are rendered from that one.
#[derive(Default)]
pub struct AnalysisFiles {
    /// Files rendered and not handed out yet, or the analysis's failure.
    pending: std::sync::Mutex<Option<Result<RenderedFiles, VfsError>>>,
}

/// Rendered files by name.
type RenderedFiles = Vec<(&'static str, Vec<u8>)>;

impl AnalysisFiles {
    /// The content of `analysis/NAME` for `opened`.
    pub fn file(&self, opened: &OpenedHeap, name: &str) -> Result<Vec<u8>, VfsError> {
        // a script's analysis at hand (taken now, so it cannot be freed meanwhile)
        match opened.current_analysis() {
            Some(Ok(a)) => return render(opened, &a, name),
            Some(Err(e)) => return Err(VfsError::TooLarge(format!("analysis/{name}: {e}"))),
            None => {}
        }
        // One computation at a time: a concurrent reader of another file waits for it.
        let mut pending = self
            .pending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(Err(e)) = &*pending {
            return Err(e.clone());
        }
        let handed = |files: &mut RenderedFiles| {
            let i = files.iter().position(|(n, _)| *n == name)?;
            Some(files.swap_remove(i).1)
        };
        if let Some(Ok(files)) = &mut *pending {
            if let Some(bytes) = handed(files) {
                return Ok(bytes);
            }
        }
        if !ANALYSIS_FILES.contains(&name) {
            return Err(VfsError::NotFound(format!("analysis/{name}")));
        }
        let analysis = match HeapAnalysis::compute(opened, &NoProgress) {
            Ok(a) => a,
            Err(e) => {
                let failure = VfsError::TooLarge(format!("analysis/: {e}"));
                *pending = Some(Err(failure.clone()));
                return Err(failure);
            }
        };
        let rendering = Rendering::new(opened, &analysis);
        let mut files = Vec::with_capacity(ANALYSIS_FILES.len());
        for file in ANALYSIS_FILES {
            files.push((file, rendering.file(file)?));
        }
        drop(rendering);
        drop(analysis);
        crate::vfs::spill::release_free_memory();
        let bytes = handed(&mut files);
        *pending = Some(Ok(files));
        bytes.ok_or_else(|| VfsError::NotFound(format!("analysis/{name}")))
    }
}
