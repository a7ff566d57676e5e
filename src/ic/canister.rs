//! `--canister <principal|name>`: a principal, or a name looked up in the project's `canister_ids.json`.

use super::error::IcError;
use super::network::Network;
use candid::Principal;
use std::path::{Path, PathBuf};

/// Largest `canister_ids.json` read.
const MAX_IDS_FILE: u64 = 1 << 20;
/// How many parent directories are searched for `canister_ids.json`.
const MAX_PARENTS: usize = 32;

/// Resolves `arg` to a principal: parsed directly, or looked up by name in `canister_ids.json`
/// (mainnet: `canister_ids.json` in `start` or a parent; other networks: `.dfx/local/canister_ids.json`).
pub fn resolve(arg: &str, network: &Network, start: &Path) -> Result<Principal, IcError> {
    if let Ok(p) = Principal::from_text(arg) {
        return Ok(p);
    }
    let key = network.ids_key();
    let mut tried: Vec<PathBuf> = Vec::new();
    let mut dir = Some(start);
    for _ in 0..MAX_PARENTS {
        let Some(d) = dir else { break };
        let candidates = if network.is_mainnet() {
            vec![d.join("canister_ids.json")]
        } else {
            vec![d.join(".dfx").join("local").join("canister_ids.json")]
        };
        for path in candidates {
            if path.is_file() {
                return lookup(&path, arg, key);
            }
            tried.push(path);
        }
        dir = d.parent();
    }
    Err(IcError::Config(format!(
        "--canister {arg:?} is neither a principal nor a name in a canister_ids.json (looked for {})",
        tried
            .first()
            .map(|p| p.display().to_string())
            .unwrap_or_default()
            + " and in parent directories"
    )))
}

fn lookup(path: &Path, name: &str, key: &str) -> Result<Principal, IcError> {
    let bytes = crate::store::fsutil::read_limited(path, MAX_IDS_FILE)
        .map_err(|e| IcError::Config(e.to_string()))?;
    let v: serde_json::Value = serde_json::from_slice(&bytes)
        .map_err(|e| IcError::Config(format!("{}: not valid JSON: {e}", path.display())))?;
    let id = v
        .get(name)
        .and_then(|entry| entry.get(key))
        .and_then(|id| id.as_str())
        .ok_or_else(|| {
            IcError::Config(format!(
                "{}: no canister named {name:?} for network {key:?}",
                path.display()
            ))
        })?;
    Principal::from_text(id).map_err(|e| {
        IcError::Config(format!(
            "{}: {name}.{key} = {id:?} is not a principal: {e}",
            path.display()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn principal_or_name() {
        let tmp = tempfile::tempdir().unwrap();
        let id = "ryjl3-tyaaa-aaaaa-aaaba-cai";
        assert_eq!(
            resolve(id, &Network::Mainnet, tmp.path())
                .unwrap()
                .to_text(),
            id
        );
        std::fs::write(
            tmp.path().join("canister_ids.json"),
            format!(r#"{{"backend":{{"ic":"{id}"}}}}"#),
        )
        .unwrap();
        let sub = tmp.path().join("src/x");
        std::fs::create_dir_all(&sub).unwrap();
        assert_eq!(
            resolve("backend", &Network::Mainnet, &sub)
                .unwrap()
                .to_text(),
            id
        );
        assert!(resolve("frontend", &Network::Mainnet, &sub).is_err());
        assert!(resolve("backend", &Network::Url("http://x".into()), &sub).is_err());
    }
}
