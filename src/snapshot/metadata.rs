//! `metadata.json` of an icp-cli/dfx snapshot directory: the IC's
//! `read_canister_snapshot_metadata` result, serialized with serde_json.

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

use candid::Nat;
use ic_management_canister_types::{
    ReadCanisterSnapshotMetadataResult, SnapshotMetadataGlobal, SnapshotSource,
};
use num_traits::ToPrimitive;

/// Largest `metadata.json` accepted (a real one is a few KiB; the chunk store adds 32 bytes a hash).
pub const MAX_METADATA_BYTES: u64 = 16 * 1024 * 1024;

/// The timestamp (ns since 1970) written into every generated fixture snapshot.
pub const FIXTURE_TIMESTAMP_NS: u64 = 1_700_000_000_000_000_000;

/// Why a `metadata.json` could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum MetadataError {
    /// The file could not be read.
    #[error("{file}: cannot read snapshot metadata: {error}")]
    Io {
        /// The metadata file.
        file: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// The file is larger than [`MAX_METADATA_BYTES`].
    #[error("{file}: snapshot metadata is {size} bytes or more, the limit is {limit}")]
    TooLarge {
        /// The metadata file.
        file: PathBuf,
        /// Its size (or a lower bound of it).
        size: u64,
        /// The limit it exceeds.
        limit: u64,
    },
    /// The JSON is malformed or does not match the metadata type.
    #[error("{file}:{line}:{column}: invalid snapshot metadata: {message}")]
    Json {
        /// The metadata file.
        file: PathBuf,
        /// 1-based line of the error (0 if unknown).
        line: usize,
        /// 1-based column of the error (0 if unknown).
        column: usize,
        /// serde's description.
        message: String,
    },
    /// Serializing failed (a float global that JSON cannot represent, such as NaN).
    #[error("cannot serialize snapshot metadata: {0}")]
    Serialize(String),
}

/// One WebAssembly global's value as the IC's snapshot metadata lists it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GlobalValue {
    /// An `i32` global.
    I32(i32),
    /// An `i64` global.
    I64(i64),
    /// An `f32` global.
    F32(f32),
    /// An `f64` global.
    F64(f64),
    /// A `v128` global.
    V128(u128),
    /// An entry this build cannot decode (a variant newer than the crate, or a `v128` beyond 128 bits);
    /// kept so that later entries keep their index.
    Unknown,
}

impl GlobalValue {
    /// The value as a `u64` if it is an integer global (`i32` zero-extended), for pointer-like globals.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            GlobalValue::I32(v) => Some(u64::from(v as u32)),
            GlobalValue::I64(v) => Some(v as u64),
            _ => None,
        }
    }

    fn from_ic(global: &Option<SnapshotMetadataGlobal>) -> GlobalValue {
        match global {
            Some(SnapshotMetadataGlobal::I32(v)) => GlobalValue::I32(*v),
            Some(SnapshotMetadataGlobal::I64(v)) => GlobalValue::I64(*v),
            Some(SnapshotMetadataGlobal::F32(v)) => GlobalValue::F32(*v),
            Some(SnapshotMetadataGlobal::F64(v)) => GlobalValue::F64(*v),
            Some(SnapshotMetadataGlobal::V128(n)) => {
                n.0.to_u128()
                    .map_or(GlobalValue::Unknown, GlobalValue::V128)
            }
            None => GlobalValue::Unknown,
        }
    }

    fn to_ic(self) -> Option<SnapshotMetadataGlobal> {
        match self {
            GlobalValue::I32(v) => Some(SnapshotMetadataGlobal::I32(v)),
            GlobalValue::I64(v) => Some(SnapshotMetadataGlobal::I64(v)),
            GlobalValue::F32(v) => Some(SnapshotMetadataGlobal::F32(v)),
            GlobalValue::F64(v) => Some(SnapshotMetadataGlobal::F64(v)),
            GlobalValue::V128(v) => Some(SnapshotMetadataGlobal::V128(Nat::from(v))),
            GlobalValue::Unknown => None,
        }
    }
}

impl fmt::Display for GlobalValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GlobalValue::I32(v) => write!(f, "i32 {v}"),
            GlobalValue::I64(v) => write!(f, "i64 {v}"),
            GlobalValue::F32(v) => write!(f, "f32 {v}"),
            GlobalValue::F64(v) => write!(f, "f64 {v}"),
            GlobalValue::V128(v) => write!(f, "v128 {v:#x}"),
            GlobalValue::Unknown => write!(f, "unknown"),
        }
    }
}

/// The metadata as dfx 0.29.0 (ic-utils 0.41's `SnapshotMetadata`) and 0.29.1
/// (ic-management-canister-types 0.3.2) serialise it: `"source": "taken_from_canister"` (a
/// unit variant) and `exported_globals` for `globals`; `None` if it is not that either.
fn from_dfx_0_29(mut value: serde_json::Value) -> Option<SnapshotMetadata> {
    let object = value.as_object_mut()?;
    if !object.contains_key("globals") {
        let globals = object.remove("exported_globals")?;
        object.insert("globals".into(), globals);
    }
    if let Some(serde_json::Value::String(source)) = object.get("source") {
        let variant = serde_json::json!({ source.clone(): null });
        object.insert("source".into(), variant);
    }
    serde_json::from_value(value).ok().map(SnapshotMetadata)
}

/// A snapshot's metadata: the IC's `read_canister_snapshot_metadata` result, as icp-cli and dfx
/// store it in `metadata.json`.
#[derive(Debug, Clone)]
pub struct SnapshotMetadata(pub ReadCanisterSnapshotMetadataResult);

impl SnapshotMetadata {
    /// Metadata for a snapshot taken from a running canister with no chunk store, no certified
    /// data and an inactive timer (what the fixture generator writes).
    pub fn taken_from_canister(
        taken_at_timestamp: u64,
        wasm_module_size: u64,
        globals: &[GlobalValue],
        wasm_memory_size: u64,
        stable_memory_size: u64,
        canister_version: u64,
    ) -> SnapshotMetadata {
        SnapshotMetadata(ReadCanisterSnapshotMetadataResult {
            source: Some(SnapshotSource::TakenFromCanister(candid::Reserved)),
            taken_at_timestamp,
            wasm_module_size,
            globals: globals.iter().map(|g| g.to_ic()).collect(),
            wasm_memory_size,
            stable_memory_size,
            wasm_chunk_store: Vec::new(),
            canister_version,
            certified_data: Vec::new(),
            global_timer: Some(ic_management_canister_types::CanisterTimer::Inactive),
            on_low_wasm_memory_hook_status: Some(
                ic_management_canister_types::OnLowWasmMemoryHookStatus::ConditionNotSatisfied,
            ),
        })
    }

    /// Parses `metadata.json` bytes; errors name the file as `metadata.json`.
    pub fn from_json(bytes: &[u8]) -> Result<SnapshotMetadata, MetadataError> {
        Self::from_json_named(bytes, Path::new("metadata.json"))
    }

    /// Parses `metadata.json` bytes; errors name `file`.
    pub fn from_json_named(bytes: &[u8], file: &Path) -> Result<SnapshotMetadata, MetadataError> {
        let size = bytes.len() as u64;
        if size > MAX_METADATA_BYTES {
            return Err(MetadataError::TooLarge {
                file: file.to_path_buf(),
                size,
                limit: MAX_METADATA_BYTES,
            });
        }
        match serde_json::from_slice(bytes) {
            Ok(meta) => Ok(SnapshotMetadata(meta)),
            Err(e) => {
                // dfx 0.29.0 and 0.29.1 wrote an older shape of the same record.
                let older = serde_json::from_slice::<serde_json::Value>(bytes)
                    .ok()
                    .and_then(from_dfx_0_29);
                older.ok_or_else(|| MetadataError::Json {
                    file: file.to_path_buf(),
                    line: e.line(),
                    column: e.column(),
                    message: e.to_string(),
                })
            }
        }
    }

    /// Reads and parses a `metadata.json` file, refusing files over [`MAX_METADATA_BYTES`]
    /// without reading them whole.
    pub fn read(file: &Path) -> Result<SnapshotMetadata, MetadataError> {
        let io = |error| MetadataError::Io {
            file: file.to_path_buf(),
            error,
        };
        let handle = std::fs::File::open(file).map_err(io)?;
        let mut bytes = Vec::new();
        handle
            .take(MAX_METADATA_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        Self::from_json_named(&bytes, file)
    }

    /// The metadata as pretty-printed JSON (icp-cli's format), without a trailing newline.
    pub fn to_json_pretty(&self) -> Result<String, MetadataError> {
        for g in &self.0.globals {
            let finite = match g {
                Some(SnapshotMetadataGlobal::F32(v)) => v.is_finite(),
                Some(SnapshotMetadataGlobal::F64(v)) => v.is_finite(),
                _ => true,
            };
            if !finite {
                return Err(MetadataError::Serialize(
                    "a float global is not finite; JSON cannot hold it".into(),
                ));
            }
        }
        serde_json::to_string_pretty(&self.0).map_err(|e| MetadataError::Serialize(e.to_string()))
    }

    /// Size of `wasm_module.bin` in bytes.
    pub fn wasm_module_size(&self) -> u64 {
        self.0.wasm_module_size
    }

    /// Size of `wasm_memory.bin` (the main memory) in bytes.
    pub fn wasm_memory_size(&self) -> u64 {
        self.0.wasm_memory_size
    }

    /// Size of `stable_memory.bin` in bytes.
    pub fn stable_memory_size(&self) -> u64 {
        self.0.stable_memory_size
    }

    /// When the snapshot was taken, in nanoseconds since 1970.
    pub fn taken_at_timestamp(&self) -> u64 {
        self.0.taken_at_timestamp
    }

    /// The canister version when the snapshot was taken.
    pub fn canister_version(&self) -> u64 {
        self.0.canister_version
    }

    /// The module's mutable globals in index order (the instruction counter excluded).
    pub fn globals(&self) -> Vec<GlobalValue> {
        self.0.globals.iter().map(GlobalValue::from_ic).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> SnapshotMetadata {
        SnapshotMetadata::taken_from_canister(
            FIXTURE_TIMESTAMP_NS,
            1234,
            &[
                GlobalValue::I32(-1),
                GlobalValue::I64(i64::MIN),
                GlobalValue::F64(1.5),
            ],
            65536 * 3,
            0,
            7,
        )
    }

    #[test]
    fn json_round_trip_keeps_sizes_and_globals() {
        let json = sample().to_json_pretty().unwrap();
        assert!(json.contains("\"taken_from_canister\": null"), "{json}");
        assert!(json.contains("\"i32\": -1"), "{json}");
        let back = SnapshotMetadata::from_json(json.as_bytes()).unwrap();
        assert_eq!(back.wasm_module_size(), 1234);
        assert_eq!(back.wasm_memory_size(), 65536 * 3);
        assert_eq!(back.stable_memory_size(), 0);
        assert_eq!(back.canister_version(), 7);
        assert_eq!(back.taken_at_timestamp(), FIXTURE_TIMESTAMP_NS);
        assert_eq!(
            back.globals(),
            vec![
                GlobalValue::I32(-1),
                GlobalValue::I64(i64::MIN),
                GlobalValue::F64(1.5)
            ]
        );
        assert_eq!(back.to_json_pretty().unwrap(), json);
    }

    #[test]
    fn icp_cli_sample_parses() {
        let json = br#"{"source":{"taken_from_canister":null},"taken_at_timestamp":5,
            "wasm_module_size":10,"globals":[{"i32":7},{"v128":[5]},{"f32":0.5}],
            "wasm_memory_size":65536,"stable_memory_size":0,"wasm_chunk_store":[],
            "canister_version":3,"certified_data":[1,2,3],"global_timer":{"active":42},
            "on_low_wasm_memory_hook_status":"condition_not_satisfied"}"#;
        let m = SnapshotMetadata::from_json(json).unwrap();
        assert_eq!(
            m.globals(),
            vec![
                GlobalValue::I32(7),
                GlobalValue::V128(5),
                GlobalValue::F32(0.5)
            ]
        );
        assert_eq!(m.0.certified_data, vec![1, 2, 3]);
    }

    #[test]
    fn dfx_0_29_shape_parses() {
        // ic-utils 0.41 / ic-management-canister-types 0.3.2, as dfx 0.29.0 and 0.29.1 wrote it
        let json = br#"{"source":"taken_from_canister","taken_at_timestamp":5,
            "wasm_module_size":10,"exported_globals":[{"i32":7},{"i64":-2}],
            "wasm_memory_size":65536,"stable_memory_size":0,"wasm_chunk_store":[],
            "canister_version":3,"certified_data":[],"global_timer":"inactive",
            "on_low_wasm_memory_hook_status":null}"#;
        let m = SnapshotMetadata::from_json(json).unwrap();
        assert_eq!(m.globals(), vec![GlobalValue::I32(7), GlobalValue::I64(-2)]);
        assert_eq!(m.wasm_memory_size(), 65536);
        assert!(matches!(
            m.0.source,
            Some(SnapshotSource::TakenFromCanister(_))
        ));
        // neither shape: the first error, with its position
        let err = SnapshotMetadata::from_json(br#"{"source":"taken_from_canister"}"#).unwrap_err();
        assert!(matches!(err, MetadataError::Json { line: 1, .. }), "{err}");
    }

    #[test]
    fn bad_json_names_file_line_and_column() {
        let err =
            SnapshotMetadata::from_json_named(b"{\n  \"source\": 5\n}", Path::new("x/m.json"))
                .unwrap_err();
        match &err {
            MetadataError::Json { line, column, .. } => {
                assert_eq!(*line, 2);
                assert!(*column > 0);
            }
            other => panic!("unexpected {other:?}"),
        }
        assert!(err.to_string().starts_with("x/m.json:2:"), "{err}");
    }

    #[test]
    fn oversized_input_is_refused() {
        let big = vec![b' '; MAX_METADATA_BYTES as usize + 1];
        assert!(matches!(
            SnapshotMetadata::from_json(&big),
            Err(MetadataError::TooLarge { .. })
        ));
    }

    #[test]
    fn nan_global_is_a_serialize_error() {
        let m = SnapshotMetadata::taken_from_canister(0, 0, &[GlobalValue::F32(f32::NAN)], 0, 0, 0);
        assert!(matches!(
            m.to_json_pretty(),
            Err(MetadataError::Serialize(_))
        ));
    }
}
