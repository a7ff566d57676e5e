//! The `mo-mem` binary against the emulator served on loopback: a private home for the child
//! (config, icp-cli and dfx roots), the emulator's controller identity as a PEM file, and the
//! check that a pulled snapshot directory holds exactly the emulator's bytes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use candid::Principal;
use ic_agent::identity::BasicIdentity;
use ic_agent::Identity;
use sha2::{Digest, Sha256};

use crate::emulator::Emulator;

/// PKCS#8 Ed25519 key with all-0x01 secret bytes: the emulator's test controller.
pub const CONTROLLER_PEM: &str = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB\n-----END PRIVATE KEY-----\n";

/// The principal of [`CONTROLLER_PEM`].
pub fn controller() -> Principal {
    BasicIdentity::from_raw_key(&[1; 32])
        .sender()
        .expect("the controller's principal")
}

/// A served emulator and a temporary home for `mo-mem` children talking to it.
pub struct CliEnv {
    /// The child's home (config, icp-cli and dfx roots live under it).
    pub tmp: tempfile::TempDir,
    /// `http://127.0.0.1:PORT` of the served emulator.
    pub url: String,
    /// [`CONTROLLER_PEM`] written to a file.
    pub pem: PathBuf,
}

impl CliEnv {
    /// Serves `emu` on loopback; the server task ends when the handle is aborted or dropped
    /// with the runtime.
    pub async fn serve(emu: &Emulator) -> (CliEnv, tokio::task::JoinHandle<()>) {
        let (addr, server) = crate::emulator::http::serve(emu.clone()).await;
        let tmp = tempfile::tempdir().expect("a temporary directory");
        let pem = tmp.path().join("controller.pem");
        std::fs::write(&pem, CONTROLLER_PEM).expect("write the controller's PEM");
        let env = CliEnv {
            url: format!("http://{addr}"),
            pem,
            tmp,
        };
        (env, server)
    }

    /// `mo-mem ARGS` with the private home (no user configuration or identity leaks in).
    pub fn cmd(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_mo-mem"));
        c.args(args)
            .env("MO_MEM_CONFIG_DIR", self.tmp.path().join("config"))
            .env("ICP_HOME", self.tmp.path().join("icp"))
            .env("DFX_CONFIG_ROOT", self.tmp.path().join("dfxroot"))
            .env("HOME", self.tmp.path().join("home"));
        c
    }
}

/// A child's exit status and output, for assertion messages.
pub fn output_text(o: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Whether every file of the pulled snapshot `dir` equals the emulator's latest snapshot of
/// `cid` (module, both memories, every chunk), else which file differs.
pub fn same_bytes(emu: &Emulator, cid: Principal, dir: &Path) -> Result<(), String> {
    let snap = emu
        .snapshots(cid)
        .pop()
        .ok_or("the emulator has no snapshot")?;
    let mut want = vec![
        ("wasm_module.bin".to_string(), snap.state.module.to_vec()),
        ("wasm_memory.bin".to_string(), snap.state.memory.to_vec()),
        ("stable_memory.bin".to_string(), snap.state.stable.to_vec()),
    ];
    for c in &snap.state.chunks {
        let name = format!("wasm_chunk_store/{}.bin", hex::encode(Sha256::digest(c)));
        want.push((name, c.clone()));
    }
    for (name, bytes) in want {
        match std::fs::read(dir.join(&name)) {
            Ok(on_disk) if on_disk == bytes => {}
            Ok(_) => return Err(format!("{name} differs from the emulator's snapshot")),
            Err(e) => return Err(format!("{name}: {e}")),
        }
    }
    Ok(())
}
