//! `--identity <name|PEM file|anonymous>`: icp-cli and dfx identities, PEM files, the anonymous identity.

use super::error::IcError;
use ic_agent::identity::{AnonymousIdentity, BasicIdentity, Prime256v1Identity, Secp256k1Identity};
use ic_agent::Identity;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Largest PEM or identity JSON file read.
const MAX_FILE: u64 = 1 << 20;

/// Where icp-cli and dfx keep identities.
#[derive(Debug, Clone, Default)]
pub struct IdentityHomes {
    /// icp-cli's identity directory (`$ICP_HOME/identity`, or `<data dir>/icp-cli/identity`).
    pub icp: Option<PathBuf>,
    /// dfx's config directory (`$DFX_CONFIG_ROOT/.config/dfx`, or `~/.config/dfx`).
    pub dfx: Option<PathBuf>,
}

impl IdentityHomes {
    /// The directories icp-cli and dfx use on this machine, honouring `ICP_HOME` and `DFX_CONFIG_ROOT`.
    pub fn from_env() -> Self {
        let icp = match std::env::var_os("ICP_HOME") {
            Some(h) => Some(PathBuf::from(h).join("identity")),
            None if cfg!(target_os = "macos") => {
                dirs::data_dir().map(|d| d.join("org.dfinity.icp-cli").join("identity"))
            }
            None => dirs::data_dir().map(|d| d.join("icp-cli").join("identity")),
        };
        let dfx = match std::env::var_os("DFX_CONFIG_ROOT") {
            Some(r) => Some(PathBuf::from(r).join(".config").join("dfx")),
            None => dirs::home_dir().map(|h| h.join(".config").join("dfx")),
        };
        Self { icp, dfx }
    }
}

/// An identity ready for the agent, with a line saying which one it is.
#[derive(Clone)]
pub struct ResolvedIdentity {
    /// The signing identity.
    pub identity: Arc<dyn Identity>,
    /// Its principal, textual.
    pub principal: String,
    /// Which identity this is and where it came from, e.g. `dfx identity "alice" (default)`.
    pub description: String,
}

impl std::fmt::Debug for ResolvedIdentity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.description, self.principal)
    }
}

/// Resolves `--identity` (or its absence) to an identity.
///
/// `None`: the icp-cli default identity if one is set, else dfx's, else anonymous.
/// `anonymous`: the anonymous identity. A path to an existing file: a PEM file. Otherwise an
/// identity name, looked up in icp-cli, then dfx.
pub fn resolve(arg: Option<&str>, homes: &IdentityHomes) -> Result<ResolvedIdentity, IcError> {
    match arg {
        None => resolve_default(homes),
        Some("anonymous") => Ok(anonymous("the anonymous identity (--identity anonymous)")),
        Some(s) if Path::new(s).is_file() || s.ends_with(".pem") => {
            let id = load_pem_file(Path::new(s))?;
            finish(id, format!("PEM file {s}"), s)
        }
        Some(name) => {
            if let Some(r) = named_icp(homes, name, "")? {
                return Ok(r);
            }
            if let Some(r) = named_dfx(homes, name, "")? {
                return Ok(r);
            }
            Err(IcError::Identity {
                name: name.into(),
                reason: "no such icp-cli or dfx identity, and no such file (list them with `icp identity list` or `dfx identity list`)".into(),
            })
        }
    }
}

fn resolve_default(homes: &IdentityHomes) -> Result<ResolvedIdentity, IcError> {
    if let Some(dir) = &homes.icp {
        let path = dir.join("identity_defaults.json");
        if path.is_file() {
            let v = read_json(&path)?;
            if let Some(name) = v.get("default").and_then(|d| d.as_str()) {
                if name == "anonymous" {
                    return Ok(anonymous("the anonymous identity (icp-cli's default)"));
                }
                if let Some(r) = named_icp(homes, name, " (icp-cli's default)")? {
                    return Ok(r);
                }
            }
        }
    }
    if let Some(dir) = &homes.dfx {
        let path = dir.join("identity.json");
        let name = if path.is_file() {
            read_json(&path)?
                .get("default")
                .and_then(|d| d.as_str())
                .map(String::from)
        } else if dir.join("identity").join("default").is_dir() {
            Some("default".into())
        } else {
            None
        };
        if let Some(name) = name {
            if name == "anonymous" {
                return Ok(anonymous("the anonymous identity (dfx's default)"));
            }
            if let Some(r) = named_dfx(homes, &name, " (dfx's default)")? {
                return Ok(r);
            }
        }
    }
    Ok(anonymous(
        "the anonymous identity (no icp-cli or dfx default identity found; pass --identity to choose one)",
    ))
}

fn named_icp(
    homes: &IdentityHomes,
    name: &str,
    why: &str,
) -> Result<Option<ResolvedIdentity>, IcError> {
    let Some(dir) = &homes.icp else {
        return Ok(None);
    };
    check_name(name)?;
    let pem = dir.join("keys").join(format!("{name}.pem"));
    if !pem.is_file() {
        let list = dir.join("identity_list.json");
        if list.is_file() {
            if let Some(spec) = read_json(&list)?
                .get("identities")
                .and_then(|m| m.get(name))
            {
                let kind = spec
                    .get("kind")
                    .and_then(|k| k.as_str())
                    .unwrap_or("unknown");
                return Err(IcError::Identity {
                    name: name.into(),
                    reason: format!("icp-cli keeps it as `{kind}`, which mo-mem cannot read; export it (`icp identity export {name} > {name}.pem`) and pass --identity {name}.pem"),
                });
            }
        }
        return Ok(None);
    }
    let text = read_small(&pem)?;
    if text.contains("ENCRYPTED") {
        return Err(IcError::Identity {
            name: name.into(),
            reason: format!("its PEM is password-protected; export it (`icp identity export {name} > {name}.pem`) and pass --identity {name}.pem"),
        });
    }
    let id = parse_pem(&text, &pem)?;
    finish(id, format!("icp-cli identity {name:?}{why}"), name).map(Some)
}

fn named_dfx(
    homes: &IdentityHomes,
    name: &str,
    why: &str,
) -> Result<Option<ResolvedIdentity>, IcError> {
    let Some(dir) = &homes.dfx else {
        return Ok(None);
    };
    check_name(name)?;
    let idir = dir.join("identity").join(name);
    let pem = idir.join("identity.pem");
    if !pem.is_file() {
        if idir.join("identity.pem.encrypted").is_file() || idir.join("identity.json").is_file() {
            return Err(IcError::Identity {
                name: name.into(),
                reason: format!("dfx keeps it encrypted or in the keyring, which mo-mem cannot read; export it (`dfx identity export {name} > {name}.pem`) and pass --identity {name}.pem"),
            });
        }
        return Ok(None);
    }
    let id = load_pem_file(&pem)?;
    finish(id, format!("dfx identity {name:?}{why}"), name).map(Some)
}

fn check_name(name: &str) -> Result<(), IcError> {
    if crate::store::layout::is_plain_name(name) {
        Ok(())
    } else {
        Err(IcError::Identity {
            name: name.into(),
            reason: "not a valid identity name".into(),
        })
    }
}

fn anonymous(description: &str) -> ResolvedIdentity {
    ResolvedIdentity {
        identity: Arc::new(AnonymousIdentity),
        principal: candid::Principal::anonymous().to_text(),
        description: description.into(),
    }
}

fn finish(
    id: Arc<dyn Identity>,
    description: String,
    name: &str,
) -> Result<ResolvedIdentity, IcError> {
    let principal = id.sender().map_err(|reason| IcError::Identity {
        name: name.into(),
        reason,
    })?;
    Ok(ResolvedIdentity {
        identity: id,
        principal: principal.to_text(),
        description,
    })
}

/// Loads a PEM file holding an Ed25519, secp256k1 or P-256 private key.
pub fn load_pem_file(path: &Path) -> Result<Arc<dyn Identity>, IcError> {
    let text = read_small(path)?;
    parse_pem(&text, path)
}

fn parse_pem(text: &str, path: &Path) -> Result<Arc<dyn Identity>, IcError> {
    if text.contains("ENCRYPTED") {
        return Err(IcError::Identity {
            name: path.display().to_string(),
            reason: "the PEM is password-protected; mo-mem reads unencrypted PEM keys only".into(),
        });
    }
    let basic = match BasicIdentity::from_pem(text.as_bytes()) {
        Ok(id) => return Ok(Arc::new(id)),
        Err(e) => e,
    };
    if let Ok(id) = Secp256k1Identity::from_pem(text.as_bytes()) {
        return Ok(Arc::new(id));
    }
    if let Ok(id) = Prime256v1Identity::from_pem(text.as_bytes()) {
        return Ok(Arc::new(id));
    }
    Err(IcError::Identity {
        name: path.display().to_string(),
        reason: format!("not an Ed25519, secp256k1 or P-256 private key in PEM ({basic})"),
    })
}

fn read_small(path: &Path) -> Result<String, IcError> {
    let bytes =
        crate::store::fsutil::read_limited(path, MAX_FILE).map_err(|e| IcError::Identity {
            name: path.display().to_string(),
            reason: e.to_string(),
        })?;
    String::from_utf8(bytes).map_err(|_| IcError::Identity {
        name: path.display().to_string(),
        reason: "not a text file".into(),
    })
}

fn read_json(path: &Path) -> Result<serde_json::Value, IcError> {
    serde_json::from_str(&read_small(path)?).map_err(|e| IcError::Identity {
        name: path.display().to_string(),
        reason: format!("not valid JSON: {e}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // A fixed Ed25519 test key (PKCS#8), never used for anything real.
    const PEM: &str = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB\n-----END PRIVATE KEY-----\n";

    #[test]
    fn default_order_icp_then_dfx_then_anonymous() {
        let tmp = tempfile::tempdir().unwrap();
        let homes = IdentityHomes {
            icp: Some(tmp.path().join("icp")),
            dfx: Some(tmp.path().join("dfx")),
        };
        let r = resolve(None, &homes).unwrap();
        assert_eq!(r.principal, "2vxsx-fae");
        assert!(r.description.contains("anonymous"), "{}", r.description);

        let d = tmp.path().join("dfx/identity/alice");
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("identity.pem"), PEM).unwrap();
        std::fs::write(
            tmp.path().join("dfx/identity.json"),
            r#"{"default":"alice"}"#,
        )
        .unwrap();
        let r = resolve(None, &homes).unwrap();
        assert!(
            r.description.contains("dfx identity \"alice\""),
            "{}",
            r.description
        );
        let alice = r.principal.clone();
        assert_ne!(alice, "2vxsx-fae");

        let k = tmp.path().join("icp/keys");
        std::fs::create_dir_all(&k).unwrap();
        std::fs::write(k.join("bob.pem"), PEM).unwrap();
        std::fs::write(
            tmp.path().join("icp/identity_defaults.json"),
            r#"{"v":1,"default":"bob"}"#,
        )
        .unwrap();
        let r = resolve(None, &homes).unwrap();
        assert!(
            r.description.contains("icp-cli identity \"bob\""),
            "{}",
            r.description
        );
        assert_eq!(r.principal, alice, "same key, same principal");

        assert!(resolve(Some("alice"), &homes)
            .unwrap()
            .description
            .contains("dfx"));
        assert_eq!(
            resolve(Some("anonymous"), &homes).unwrap().principal,
            "2vxsx-fae"
        );
        let file = tmp.path().join("k.pem");
        std::fs::write(&file, PEM).unwrap();
        assert_eq!(
            resolve(Some(file.to_str().unwrap()), &homes)
                .unwrap()
                .principal,
            alice
        );
        let e = resolve(Some("nobody"), &homes).unwrap_err().to_string();
        assert!(e.contains("no such"), "{e}");
        std::fs::write(d.join("identity.pem"), "garbage").unwrap();
        assert!(resolve(Some("alice"), &homes).is_err());
    }
}
