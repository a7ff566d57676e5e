//! The `mo-mem` binary against the emulator served on loopback: the scripts' contract
//! `mo-mem pull --network http://127.0.0.1:PORT --canister ID --store DIR`, killed and resumed.

use crate::common::schemas::assert_follows;
use crate::emulator;

use crate::emulator_harness::cli::{
    controller, output_text as text, same_bytes, CliEnv, CONTROLLER_PEM,
};
use candid::Principal;
use emulator::{Data, Emulator};
use ic_management_canister_types::CanisterStatusType;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

/// The served emulator, the child's home and its snapshot store.
struct Env {
    cli: CliEnv,
    store: PathBuf,
}

impl Env {
    fn cmd(&self, args: &[&str]) -> Command {
        self.cli.cmd(args)
    }

    async fn run(&self, args: &[&str]) -> Output {
        let mut c = self.cmd(args);
        tokio::task::spawn_blocking(move || c.output().unwrap())
            .await
            .unwrap()
    }

    /// `mo-mem <command> --network <emulator> --canister <canister> --identity <controller>
    /// <extra…>`.
    async fn run_as_controller(&self, command: &str, canister: &str, extra: &[&str]) -> Output {
        let pem = self.cli.pem.to_string_lossy().into_owned();
        let mut args = vec![
            command,
            "--network",
            &self.cli.url,
            "--canister",
            canister,
            "--identity",
            &pem,
        ];
        args.extend_from_slice(extra);
        self.run(&args).await
    }
}

async fn start(emu: &Emulator) -> (Env, tokio::task::JoinHandle<()>) {
    let (cli, server) = CliEnv::serve(emu).await;
    let store = cli.tmp.path().join("store");
    (Env { cli, store }, server)
}

fn module() -> Vec<u8> {
    let mut m = b"\0asm\x01\0\0\0".to_vec();
    m.extend(std::iter::repeat_n(0x42, 5000));
    m
}

fn same_files(emu: &Emulator, cid: Principal, dir: &Path) {
    if let Err(e) = same_bytes(emu, cid, dir) {
        panic!("{}: {e}", dir.display());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pull_killed_after_n_slices_resumes_byte_identical() {
    let emu = Emulator::new();
    let mut c = Emulator::simple_canister(
        controller(),
        module(),
        Data::Pattern {
            seed: 5,
            len: 65_536 * 100,
        },
        Data::Pattern {
            seed: 6,
            len: 65_536 * 4,
        },
    );
    c.chunks = vec![vec![1, 2, 3]];
    let cid = emu.install(c);
    emu.take_direct(cid, None);
    let (env, server) = start(&emu).await;
    let cid_text = cid.to_text();
    let pem = env.cli.pem.to_str().unwrap().to_string();
    let store = env.store.to_str().unwrap().to_string();
    let pull_args = [
        "pull",
        "--network",
        &env.cli.url,
        "--canister",
        &cid_text,
        "--store",
        &store,
        "--identity",
        &pem,
        "--slice-size",
        "400000",
        "--concurrency",
        "3",
        "--json",
    ];

    // Kill the process (SIGKILL, no chance to clean up) once 5 slice reads were served.
    let pid = Arc::new(AtomicU32::new(0));
    let p = pid.clone();
    emu.set_slice_hook(Some(Arc::new(move |n, _| {
        if n >= 6 {
            let child = p.swap(0, Ordering::SeqCst);
            if child != 0 {
                // SAFETY: sending a signal to the child this test started.
                unsafe { libc::kill(child as i32, libc::SIGKILL) };
            }
        }
    })));
    let mut cmd = env.cmd(&pull_args);
    let mut child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    pid.store(child.id(), Ordering::SeqCst);
    let status = tokio::task::spawn_blocking(move || child.wait().unwrap())
        .await
        .unwrap();
    assert!(
        !status.success(),
        "the pull was killed: {status:?} after {} reads",
        emu.stats.slice_reads.load(Ordering::Relaxed)
    );
    emu.set_slice_hook(None);
    let sid = hex::encode(&emu.snapshots(cid)[0].id);
    let dir = env.store.join(&cid_text).join(&sid);
    assert!(
        dir.join(".pull_state.json").exists(),
        "progress survives the kill"
    );
    assert!(!dir.join("manifest.json").exists(), "not complete");
    let served_before = emu.stats.bytes_served.load(Ordering::Relaxed);

    // The same command again resumes and completes.
    let out = env.run(&pull_args).await;
    assert!(out.status.success(), "{}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_follows("pull", &v, "pull --json");
    assert_eq!(v["resumed"], true, "{}", text(&out));
    assert_eq!(v["snapshot"], sid.as_str());
    let total = 5008 + 65_536 * 104 + 3;
    let downloaded = v["downloaded"].as_u64().unwrap();
    assert!(downloaded < total, "resumed, not restarted: {downloaded}");
    assert!(served_before > 0);
    same_files(&emu, cid, &dir);
    assert!(!dir.join(".pull_state.json").exists());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("PEM file"), "says which identity: {stderr}");

    // verify passes; a tampered file is named; a tampered manifest is refused.
    let out = env.run(&["verify", "--store", &store]).await;
    assert!(out.status.success(), "{}", text(&out));
    let mem = dir.join("wasm_memory.bin");
    let mut bytes = std::fs::read(&mem).unwrap();
    bytes[12345] ^= 0x80;
    std::fs::write(&mem, &bytes).unwrap();
    let out = env.run(&["verify", "--store", &store]).await;
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("wasm_memory.bin"),
        "{}",
        text(&out)
    );
    bytes[12345] ^= 0x80;
    std::fs::write(&mem, &bytes).unwrap();
    let manifest = dir.join("manifest.json");
    let m = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, m.replacen("\"size\": 3", "\"size\": 4", 1)).unwrap();
    let out = env
        .run(&["verify", dir.to_str().unwrap(), "--store", &store])
        .await;
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("HMAC"),
        "{}",
        text(&out)
    );
    server.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn info_create_update_and_identities() {
    let emu = Emulator::new();
    let mut c = Emulator::simple_canister(
        controller(),
        module(),
        Data::bytes(vec![9; 65_536]),
        Data::bytes(vec![]),
    );
    c.status = CanisterStatusType::Running;
    let cid = emu.install(c);
    let (env, server) = start(&emu).await;
    let cid_text = cid.to_text();
    let net = env.cli.url.clone();

    let out = env.run_as_controller("create", &cid_text, &[]).await;
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--stop"),
        "{}",
        text(&out)
    );
    let out = env
        .run_as_controller("create", &cid_text, &["--stop", "--json"])
        .await;
    assert!(out.status.success(), "{}", text(&out));
    let created: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_follows("ic-take", &created, "create --json");
    assert_eq!(created["restarted"], true);
    assert_eq!(
        emu.with_canister(cid, |c| c.status),
        CanisterStatusType::Running
    );
    let out = env
        .run_as_controller("update", &cid_text, &["--stop", "--json"])
        .await;
    assert!(out.status.success(), "{}", text(&out));
    let updated: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_follows("ic-take", &updated, "update --json");
    assert_eq!(updated["replaced"], created["id"]);

    let out = env
        .run_as_controller("info", &cid_text, &["--json", "--metadata"])
        .await;
    assert!(out.status.success(), "{}", text(&out));
    let info: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_follows("ic-info", &info, "info --canister --json --metadata");
    assert_eq!(info["count"], 1);
    assert_eq!(info["limit"], 10);
    assert_eq!(info["snapshots"][0]["id"], updated["id"]);
    assert_eq!(info["snapshots"][0]["metadata"]["wasm_memory_size"], 65_536);
    // The number rule (docs/formats.md): nanoseconds since 1970 are beyond 2^53, a string.
    let taken = &info["snapshots"][0]["metadata"]["taken_at_timestamp"];
    assert_eq!(taken, &info["snapshots"][0]["taken_at_ns"]);
    assert!(taken.is_string(), "{taken}");
    let out = env.run_as_controller("info", &cid_text, &["--json"]).await;
    let brief: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_follows("ic-info", &brief, "info --canister --json");
    assert!(brief["snapshots"][0]
        .get("metadata")
        .is_none_or(|m| m.is_null()));
    let out = env.run_as_controller("info", &cid_text, &[]).await;
    let human = String::from_utf8_lossy(&out.stdout);
    assert!(
        human.contains("1 of 10 snapshots") && human.contains("(latest)"),
        "{}",
        text(&out)
    );

    // No --identity and no icp-cli/dfx default: anonymous, said so, and refused as a non-controller.
    let out = env
        .run(&["info", "--network", &net, "--canister", &cid_text])
        .await;
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("anonymous identity") && err.contains("not a controller"),
        "{}",
        text(&out)
    );
    // A dfx default identity is picked up.
    let d = env.cli.tmp.path().join("dfxroot/.config/dfx/identity/ctl");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("identity.pem"), CONTROLLER_PEM).unwrap();
    std::fs::write(
        env.cli.tmp.path().join("dfxroot/.config/dfx/identity.json"),
        r#"{"default":"ctl"}"#,
    )
    .unwrap();
    let out = env
        .run(&["info", "--network", &net, "--canister", &cid_text])
        .await;
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("dfx identity \"ctl\" (dfx's default)"),
        "{}",
        text(&out)
    );

    // import: refused without --trust, adopted with it, verified.
    let out = env
        .run(&[
            "pull",
            "--network",
            &net,
            "--canister",
            &cid_text,
            "--store",
            env.cli.tmp.path().join("s1").to_str().unwrap(),
        ])
        .await;
    assert!(out.status.success(), "{}", text(&out));
    let sid = updated["id"].as_str().unwrap();
    let src = env.cli.tmp.path().join("s1").join(&cid_text).join(sid);
    let dl = env.cli.tmp.path().join("download");
    std::fs::create_dir_all(dl.join("wasm_chunk_store")).unwrap();
    for f in ["metadata.json", "wasm_module.bin", "wasm_memory.bin"] {
        std::fs::copy(src.join(f), dl.join(f)).unwrap();
    }
    let store2 = env.cli.tmp.path().join("s2");
    let out = env
        .run(&[
            "import",
            dl.to_str().unwrap(),
            "--canister",
            &cid_text,
            "--store",
            store2.to_str().unwrap(),
        ])
        .await;
    assert!(
        !out.status.success() && String::from_utf8_lossy(&out.stderr).contains("--trust"),
        "{}",
        text(&out)
    );
    let out = env
        .run(&[
            "import",
            dl.to_str().unwrap(),
            "--canister",
            &cid_text,
            "--snapshot",
            sid,
            "--trust",
            "--store",
            store2.to_str().unwrap(),
            "--json",
        ])
        .await;
    assert!(out.status.success(), "{}", text(&out));
    let imported: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_follows("import", &imported, "import --json");
    assert_eq!(imported["source"]["snapshot"], sid);
    assert_eq!(imported["source"]["method"], "import");
    // Times in nanoseconds since 1970 are beyond 2^53: strings by the number rule.
    assert!(
        imported["source"]["acquired_at_ns"].is_string(),
        "{imported}"
    );
    let out = env
        .run(&["verify", "--store", store2.to_str().unwrap(), "--json"])
        .await;
    assert!(out.status.success(), "{}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_follows("verify", &v, "verify --json");
    assert_eq!(v["snapshots"][0]["source"], imported["source"]);
    server.abort();
}

/// `mo-mem create/pull --protocol canister`: the canister-hosted protocol of `motoko/main.mo`
/// through the binary, whose agent always checks the node signatures of query replies (the
/// emulator signs them and certifies its node keys): a forged signature is refused before
/// anything is written; a genuine pull holds exactly the canister's memory at `create`, and
/// `verify` passes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hosted_protocol_pull_checks_query_signatures() {
    let emu = Emulator::new();
    let memory = Data::Pattern {
        seed: 11,
        len: 65_536 * 30,
    };
    let mut c =
        Emulator::simple_canister(controller(), module(), memory.clone(), Data::bytes(vec![]));
    c.status = CanisterStatusType::Running;
    c.hosted = Some(emulator::Hosted::default());
    let cid = emu.install(c);
    let (env, server) = start(&emu).await;
    let cid_text = cid.to_text();
    let store = env.store.to_str().unwrap().to_string();

    let out = env
        .run_as_controller("create", &cid_text, &["--protocol", "canister", "--json"])
        .await;
    assert!(out.status.success(), "{}", text(&out));
    let created: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_follows("ic-take", &created, "create --protocol canister --json");
    assert_eq!(created["id"], "0", "{}", text(&out));
    assert_eq!(created["total_size"], 65_536 * 30);
    let out = env
        .run_as_controller("info", &cid_text, &["--protocol", "canister", "--json"])
        .await;
    assert!(out.status.success(), "{}", text(&out));
    let info: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_follows(
        "ic-info",
        &info,
        "info --canister --protocol canister --json",
    );
    assert_eq!(info["snapshots"][0]["id"], "0", "{info}");
    assert_eq!(info["protocol"], "canister");
    // The canister runs on: its memory now differs from the snapshot's copy.
    emu.with_canister(cid, |c| c.memory = Data::bytes(vec![0x55; 65_536 * 31]));

    let pull = [
        "--protocol",
        "canister",
        "--store",
        &store,
        "--slice-size",
        "500000",
        "--json",
    ];
    emu.faults.lock().unwrap().forged_query_signatures = true;
    let out = env.run_as_controller("pull", &cid_text, &pull).await;
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("failed certificate verification")
            && err.contains("signature")
            && !err.contains("panicked"),
        "{}",
        text(&out)
    );
    let dir = env.store.join(&cid_text).join("hosted-0");
    assert!(!dir.join("manifest.json").exists(), "refused, not complete");

    emu.faults.lock().unwrap().forged_query_signatures = false;
    let out = env.run_as_controller("pull", &cid_text, &pull).await;
    assert!(out.status.success(), "{}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_follows("pull", &v, "pull --protocol canister --json");
    assert_eq!(v["snapshot"], "hosted-0", "{}", text(&out));
    assert_eq!(v["dir"], dir.to_str().unwrap());
    let image = std::fs::read(dir.join("main_memory.bin")).unwrap();
    assert!(
        image == memory.to_vec(),
        "the pulled image differs from the canister's memory at create"
    );

    let out = env.run(&["verify", "--store", &store, "--json"]).await;
    assert!(out.status.success(), "{}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_follows("verify", &v, "verify --json (hosted)");
    assert_eq!(v["snapshots"].as_array().map(Vec::len), Some(1), "{v}");
    assert_eq!(v["snapshots"][0]["ok"], true);
    assert_eq!(v["snapshots"][0]["source"]["method"], "canister");
    assert_eq!(v["snapshots"][0]["source"]["snapshot"], "hosted-0");
    server.abort();
}
