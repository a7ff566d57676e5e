//! A snapshot's `analysis/` directory: the files its decoder offers
//! ([`DecodedSnapshot::analysis_files`]), each read through the decoder (`serve` renders
//! them from the cached heap analysis).

use std::sync::Arc;

use super::decoded::DecodedSnapshot;
use super::entry::{DirSource, Entry, FnFile};
use super::error::VfsError;

/// The `analysis/` directory of a decoded snapshot.
pub struct AnalysisDir {
    decoded: Arc<dyn DecodedSnapshot>,
}

impl AnalysisDir {
    /// The directory over `decoded`.
    pub fn new(decoded: Arc<dyn DecodedSnapshot>) -> AnalysisDir {
        AnalysisDir { decoded }
    }
}

impl DirSource for AnalysisDir {
    fn list(&self) -> Result<Vec<(String, Entry)>, VfsError> {
        Ok(self
            .decoded
            .analysis_files()
            .iter()
            .map(|&name| {
                let d = self.decoded.clone();
                let file = FnFile(move || d.analysis_file(name));
                (name.to_string(), Entry::File(Arc::new(file)))
            })
            .collect())
    }
}
