//! `mo-mem repl`: an interactive Motoko session (definitions persist between inputs).

use super::eval::with_siblings;
use anyhow::bail;
use mo_mem::image::ReaderLimits;
use mo_mem::script::{self, Limits, ScriptError};
use mo_mem::serve::script_run::command_session;
use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;

/// Arguments of `mo-mem repl`.
#[derive(clap::Args, Debug)]
pub struct ReplArgs {
    /// The snapshot directory (omit with --no-snapshot).
    snapshot: Option<String>,
    /// Run without a snapshot (no `image`, `heap`, `vars`).
    #[arg(long, hide = true)]
    no_snapshot: bool,
    /// Read a snapshot even if its manifest or files do not verify (see `mo-mem verify`).
    #[arg(long)]
    no_verify: bool,
}

/// Runs `mo-mem repl`: reads inputs until they parse, evaluates, prints; `:quit` ends.
pub fn run(args: ReplArgs, limits: ReaderLimits) -> anyhow::Result<()> {
    let (context, others) = match (&args.snapshot, args.no_snapshot) {
        (Some(dir), false) => {
            let (heap, siblings) = with_siblings(Path::new(dir), args.no_verify, limits)?;
            (Some(heap), Some(siblings))
        }
        (None, false) => bail!("give a SNAPSHOT directory (or --no-snapshot)"),
        _ => (None, None),
    };
    script::on_eval_thread(move || {
        let snapshot = context.is_some();
        let mut session = command_session(Limits::default(), "input", context, others).start();
        let stdin = std::io::stdin();
        let interactive = stdin.is_terminal();
        let mut buf = String::new();
        loop {
            if interactive {
                print!("{}", if buf.is_empty() { "mo> " } else { "..> " });
                let _ = std::io::stdout().flush();
            }
            let mut line = String::new();
            match stdin.lock().read_line(&mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let trimmed = line.trim();
            if buf.is_empty() && (trimmed == ":quit" || trimmed == ":q") {
                break;
            }
            if buf.is_empty() && trimmed == ":names" {
                println!("{}", session.names().join(" "));
                continue;
            }
            buf.push_str(&line);
            if buf.trim().is_empty() {
                buf.clear();
                continue;
            }
            if let Err(ScriptError::Syntax { error, .. }) = session.check(&buf) {
                if error.message.contains("end of input") {
                    continue;
                }
            }
            match session.eval(&buf) {
                Ok(ev) if snapshot => print!("{}", mo_mem::script::show::render(&ev)),
                Ok(ev) => print!("{}", ev.render()),
                Err(e) => {
                    if let ScriptError::Trap { output, .. } = &e {
                        print!("{output}");
                    }
                    eprintln!("{e}");
                }
            }
            buf.clear();
        }
    })
    .map_err(|_| anyhow::anyhow!("the evaluation thread failed"))?;
    Ok(())
}
