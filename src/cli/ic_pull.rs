//! `mo-mem pull`: download a snapshot into the store, resumably and verified.

use super::ic_common::{
    canister, connect, human_bytes, runtime, CanisterArg, IcArgs, Protocol, StoreArgs,
};
use anyhow::Result;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mo_mem::heap::render::number_rule;
use mo_mem::ic::{self, PullOptions};
use serde_json::json;

/// Flags of `pull`.
#[derive(Args, Debug, Clone)]
pub struct PullArgs {
    #[command(flatten)]
    pub ic: IcArgs,
    #[command(flatten)]
    pub canister: CanisterArg,
    #[command(flatten)]
    pub store: StoreArgs,
    /// The snapshot ID (hex, as `mo-mem info` prints it); default: the latest.
    #[arg(long)]
    pub snapshot: Option<String>,
    /// Bytes per read, at most 2,000,000 (the IC's limit).
    #[arg(long, default_value_t = ic::pull::MAX_SLICE)]
    pub slice_size: u64,
    /// Reads in flight.
    #[arg(long, default_value_t = ic::pull::DEFAULT_CONCURRENCY)]
    pub concurrency: usize,
    /// Refuse snapshots larger than this many bytes.
    #[arg(long, default_value_t = ic::pull::DEFAULT_MAX_BYTES)]
    pub max_bytes: u64,
}

/// Cycles for people: `4.8 B cycles`.
pub fn human_cycles(c: u64) -> String {
    let c = c as f64;
    if c >= 1e12 {
        format!("{:.3} T cycles", c / 1e12)
    } else if c >= 1e9 {
        format!("{:.2} B cycles", c / 1e9)
    } else {
        format!("{:.1} M cycles", c / 1e6)
    }
}

/// The download's progress bar on stderr.
struct DownloadBar(ProgressBar);

impl mo_mem::store::pull::Progress for DownloadBar {
    fn start(&self, total: u64, done: u64) {
        self.0.set_length(total);
        self.0.set_position(done);
    }
    fn advance(&self, bytes: u64) {
        self.0.inc(bytes);
    }
    fn grow(&self, bytes: u64) {
        self.0.inc_length(bytes);
    }
    fn finish(&self) {
        self.0.finish();
    }
}

/// Pulls the snapshot and prints where it went.
pub fn run(args: &PullArgs) -> Result<()> {
    let cid = canister(&args.ic, &args.canister)?;
    let (store, key) = args.store.open()?;
    let bar = if args.ic.json {
        ProgressBar::hidden()
    } else {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} [{bar:40}] {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} ETA {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        bar
    };
    let choice = match args.ic.protocol {
        Protocol::Management => ic::SnapshotChoice::management(args.snapshot.as_deref())?,
        Protocol::Canister => ic::SnapshotChoice::hosted(args.snapshot.as_deref())?,
    };
    let opts = PullOptions {
        snapshot: None,
        slice_size: args.slice_size,
        concurrency: args.concurrency,
        max_bytes: args.max_bytes,
        progress: std::sync::Arc::new(DownloadBar(bar)),
    };
    ic::pull::check_options(&opts)?;
    let root = store.root().to_path_buf();
    let pulled = runtime()?.block_on(async {
        let conn = connect(&args.ic).await?;
        let slice_size = opts.slice_size;
        let out = ic::pull_chosen(&conn, cid, &choice, &store, &key, opts).await?;
        for n in &out.notes {
            eprintln!("note: {n}");
        }
        let slices = out.downloaded.div_ceil(slice_size.max(1));
        let cycles = ic::pull::read_cost_cycles(out.downloaded, slices);
        if args.ic.json {
            println!(
                "{}",
                serde_json::to_string_pretty(&number_rule(json!({
                    "canister": cid.to_text(),
                    "snapshot": out.label,
                    "dir": out.dir,
                    "downloaded": out.downloaded,
                    "resumed": out.resumed,
                    "already_complete": out.already_complete,
                    "estimated_cycles": cycles,
                    "notes": out.notes,
                })))?
            );
        } else if out.already_complete {
            println!(
                "snapshot {} is already in the store and verifies: {}",
                out.label,
                out.dir.display()
            );
        } else {
            println!(
                "pulled snapshot {} of {cid} ({} this run{}) into {}",
                out.label,
                human_bytes(out.downloaded),
                if out.resumed { ", resumed" } else { "" },
                out.dir.display()
            );
            println!(
                "checked and verified; the reads cost the canister about {} (estimate)",
                human_cycles(cycles)
            );
        }
        Ok(())
    });
    pulled.map_err(|e| explain_full_disk(e, &root))
}

/// A full disk (or quota) gets a message saying what to do; other errors pass unchanged.
fn explain_full_disk(error: anyhow::Error, store: &std::path::Path) -> anyhow::Error {
    let full = error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .and_then(std::io::Error::raw_os_error)
            .is_some_and(|code| code == libc::ENOSPC || code == libc::EDQUOT)
    });
    if !full {
        return error;
    }
    anyhow::anyhow!(
        "{error}\nthe disk holding the store {} is full: nothing was marked complete; free some \
         space and run the same command again to resume the pull where it stopped",
        store.display()
    )
}
