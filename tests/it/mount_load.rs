//! Load: 32 concurrent readers over a mount of every fixture snapshot, each running a fixed
//! number of operations (25 per round, one round; `MO_MEM_LOAD_ROUNDS` sets more) in its
//! own shuffled order: `ls`, small and large `cat`, `grep -r`, `jq` and `eval` writes and
//! reads. Every operation must succeed with the right content, and every kind runs exactly
//! as often as scheduled (counts, not a time window a loaded machine may not fill); the test
//! prints the latency of a small `cat` (p50, p99) and the operation counts.

use crate::common;
use crate::faults_support;

use faults_support::{fuse_available, Mount, BIN};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One round of a reader's operations: (the operation's kind, how many per round).
const ROUND: [(u32, usize); 6] = [(0, 10), (40, 5), (60, 4), (75, 2), (84, 2), (92, 2)];

const READERS: usize = 32;

#[derive(Default)]
struct Tally {
    small_cat: Vec<Duration>,
    ls: usize,
    large_cat: usize,
    grep: usize,
    jq: usize,
    eval: usize,
    eval_busy: usize,
    errors: Vec<String>,
}

struct Snap {
    mounted: PathBuf,
    metadata: Vec<u8>,
    entries: usize,
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn one_op(snap: &Snap, op: u32, session: usize, tally: &Mutex<Tally>) -> Result<(), String> {
    let dir = &snap.mounted;
    match op {
        0..=39 => {
            let t = Instant::now();
            let bytes = std::fs::read(dir.join("metadata.json")).map_err(|e| e.to_string())?;
            let took = t.elapsed();
            if bytes != snap.metadata {
                return Err("metadata.json differs from its source".into());
            }
            tally.lock().unwrap().small_cat.push(took);
        }
        40..=59 => {
            let n = std::fs::read_dir(dir).map_err(|e| e.to_string())?.count();
            if n != snap.entries {
                return Err(format!("ls listed {n} entries, not {}", snap.entries));
            }
            let vars = std::fs::read_dir(dir.join("vars")).map_err(|e| e.to_string())?;
            if vars.count() == 0 {
                return Err("vars/ is empty".into());
            }
            tally.lock().unwrap().ls += 1;
        }
        60..=74 => {
            let stats = std::fs::read(dir.join("stats.json")).map_err(|e| e.to_string())?;
            serde_json::from_slice::<serde_json::Value>(&stats).map_err(|e| e.to_string())?;
            let memory = std::fs::metadata(dir.join("wasm_memory.bin"))
                .map_err(|e| e.to_string())?
                .len();
            let read = std::fs::read(dir.join("wasm_memory.bin")).map_err(|e| e.to_string())?;
            if read.len() as u64 != memory {
                return Err("wasm_memory.bin: size and bytes read differ".into());
            }
            tally.lock().unwrap().large_cat += 1;
        }
        75..=83 => {
            let status = Command::new("grep")
                .args(["-r", "-q", "-e", "0"])
                .arg(dir.join("vars"))
                .status()
                .map_err(|e| e.to_string())?;
            if status.code() == Some(2) || status.code().is_none() {
                return Err(format!("grep -r: {status}"));
            }
            tally.lock().unwrap().grep += 1;
        }
        84..=91 => {
            let out = Command::new("jq")
                .args(["-e", ".heap_bytes // .objects // ."])
                .arg(dir.join("info.json"))
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .output()
                .map_err(|e| e.to_string())?;
            if !out.status.success() {
                return Err(format!(
                    "jq: {}",
                    String::from_utf8_lossy(&out.stderr).trim()
                ));
            }
            tally.lock().unwrap().jq += 1;
        }
        _ => {
            // A "busy" answer leaves the request pending: the session reads again until it
            // runs (each busy read is counted), so every scheduled eval is answered.
            let script = format!("{session} + 1");
            let ask = r#"echo "$2" > "$1" || exit 1
                while a=$(cat "$1"); do
                    case "$a" in "eval: busy"*) echo busy >&2; sleep 0.01;; *) echo "$a"; exit 0;; esac
                done; exit 1"#;
            let out = Command::new("setsid")
                .args(["-w", "sh", "-c", ask, "sh"])
                .arg(dir.join("eval"))
                .arg(&script)
                .output()
                .map_err(|e| e.to_string())?;
            let answer = String::from_utf8_lossy(&out.stdout);
            let mut tally = tally.lock().unwrap();
            tally.eval_busy += String::from_utf8_lossy(&out.stderr)
                .lines()
                .filter(|l| *l == "busy")
                .count();
            if out.status.success() && answer.replace('_', "") == format!("{}\n", session + 1) {
                tally.eval += 1;
            } else {
                return Err(format!(
                    "eval {script:?} answered {answer:?} ({})",
                    String::from_utf8_lossy(&out.stderr).trim()
                ));
            }
        }
    }
    Ok(())
}

#[test]
fn thirty_two_readers_run_their_scheduled_operations_without_error() {
    if !fuse_available() {
        return;
    }
    let fixtures = common::all_fixtures();
    let root = fixtures[0]
        .2
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .to_path_buf();
    let mut command = Command::new(BIN);
    command.env("MO_MEM_LOG", "warn");
    let mut mount = Mount::start_command(command, &[root.to_str().unwrap()]);
    let snaps: Vec<Snap> = fixtures
        .iter()
        .map(|(name, mode, dir)| {
            let mounted = mount.path(&format!("{name}-{mode}"));
            let entries = std::fs::read_dir(&mounted)
                .unwrap_or_else(|e| panic!("{}: {e}", mounted.display()))
                .count();
            Snap {
                metadata: std::fs::read(dir.join("metadata.json")).unwrap(),
                mounted,
                entries,
            }
        })
        .collect();
    let rounds: usize = std::env::var("MO_MEM_LOAD_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let tally = Arc::new(Mutex::new(Tally::default()));
    let snaps = Arc::new(snaps);
    let readers: Vec<_> = (0..READERS)
        .map(|reader| {
            let (tally, snaps) = (tally.clone(), snaps.clone());
            std::thread::spawn(move || {
                let mut rng = fastrand::Rng::with_seed(reader as u64);
                let mut ops: Vec<u32> = ROUND
                    .iter()
                    .flat_map(|&(op, n)| std::iter::repeat_n(op, n * rounds))
                    .collect();
                rng.shuffle(&mut ops);
                let mut session = reader * 1_000_000;
                for op in ops {
                    let snap = &snaps[rng.usize(..snaps.len())];
                    session += 1;
                    if let Err(e) = one_op(snap, op, session, &tally) {
                        let what = format!("{}: {e}", snap.mounted.display());
                        tally.lock().unwrap().errors.push(what);
                    }
                }
            })
        })
        .collect();
    for reader in readers {
        reader.join().unwrap();
    }
    let mut tally = tally.lock().unwrap();
    tally.small_cat.sort();
    let ops = tally.small_cat.len()
        + tally.ls
        + tally.large_cat
        + tally.grep
        + tally.jq
        + tally.eval
        + tally.eval_busy;
    eprintln!(
        "load: {READERS} readers, {rounds} round(s), {} snapshots: {ops} operations ({} small cat, {} ls, \
         {} large cat, {} grep -r, {} jq, {} eval + {} busy), {} errors",
        snaps.len(),
        tally.small_cat.len(),
        tally.ls,
        tally.large_cat,
        tally.grep,
        tally.jq,
        tally.eval,
        tally.eval_busy,
        tally.errors.len()
    );
    assert!(!tally.small_cat.is_empty());
    eprintln!(
        "small cat (metadata.json) latency: p50 {:?}, p99 {:?}, max {:?}",
        percentile(&tally.small_cat, 0.50),
        percentile(&tally.small_cat, 0.99),
        tally.small_cat.last().unwrap()
    );
    assert!(tally.errors.is_empty(), "errors: {:#?}", tally.errors);
    let per_kind = |op: u32| READERS * rounds * ROUND.iter().find(|k| k.0 == op).unwrap().1;
    let done = [
        tally.small_cat.len(),
        tally.ls,
        tally.large_cat,
        tally.grep,
        tally.jq,
        tally.eval,
    ];
    let scheduled = ROUND.map(|(op, _)| per_kind(op));
    assert_eq!(done, scheduled, "operations done per kind, as scheduled");
    assert!(mount.alive());
}
