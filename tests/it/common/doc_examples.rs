//! The examples of a markdown document, as the doc tests run them.

/// `(source, expected output)` of every ```` ```motoko ```` block followed by a
/// ```` ```text ```` block (a `motoko` block without one is not an example).
pub fn motoko_examples(md: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lines = md.lines();
    let mut pending: Option<String> = None;
    while let Some(line) = lines.next() {
        let fence = line.trim_start();
        if fence == "```motoko" || fence == "```text" {
            let mut body = String::new();
            for l in lines.by_ref() {
                if l.trim_start() == "```" {
                    break;
                }
                body.push_str(l);
                body.push('\n');
            }
            if fence == "```motoko" {
                pending = Some(body);
            } else if let Some(src) = pending.take() {
                out.push((src, body));
            }
        }
    }
    out
}

/// `(command, expected output)` of every `$ ` line of every ```` ```console ```` block: the
/// output is the lines up to the next command or the block's end.
pub fn console_examples(md: &str) -> Vec<(String, String)> {
    let mut examples: Vec<(String, String)> = Vec::new();
    let mut in_console = false;
    for line in md.lines() {
        if line.starts_with("```") {
            in_console = line == "```console";
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            examples.push((command.to_string(), String::new()));
        } else if let Some((_, expected)) = examples.last_mut() {
            expected.push_str(line);
            expected.push('\n');
        }
    }
    examples
}

/// Runs every `mo-mem` console example of the document at `doc` (relative to the repository)
/// and asserts each prints exactly what the document shows; `fixture/mode` in a command
/// (the snapshot, and any later argument naming a committed fixture) stands for that
/// materialized committed fixture. Returns how many ran.
pub fn check_console_examples(doc: &str) -> usize {
    let text = std::fs::read_to_string(super::repo_root().join(doc)).expect("the document");
    let mut checked = 0;
    for (command, expected) in console_examples(&text) {
        let cmd = command.strip_prefix("mo-mem ").expect("a mo-mem command");
        // `mo-mem ARGS | FILTER`: the output goes through FILTER (e.g. `jq`), run by `sh`.
        let (cmd, filter) = match cmd.split_once(" | ") {
            Some((cmd, filter)) => (cmd, Some(filter)),
            None => (cmd, None),
        };
        let args = fixture_args(cmd);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_mo-mem"))
            .args(&args)
            .output()
            .expect("run mo-mem");
        assert!(
            out.status.success(),
            "{cmd}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = match filter {
            None => out.stdout,
            Some(filter) => filtered(filter, &out.stdout),
        };
        assert_eq!(
            String::from_utf8_lossy(&stdout),
            expected,
            "{doc}: {command}"
        );
        checked += 1;
    }
    checked
}

/// The arguments of the example command `cmd` (without `mo-mem `): `fixture/mode` as the
/// snapshot, and any later argument naming a committed fixture, stand for that materialized
/// committed fixture.
pub fn fixture_args(cmd: &str) -> Vec<String> {
    let mut args: Vec<String> = cmd.split_whitespace().map(str::to_string).collect();
    let (name, mode) = args[1].split_once('/').expect("fixture/mode");
    args[1] = super::fixture(name, mode).to_string_lossy().into_owned();
    // Later `fixture/mode` arguments too (`mo-mem diff growth1/eop growth2/eop`).
    let committed = super::committed_fixtures();
    for arg in args.iter_mut().skip(2) {
        if let Some((name, mode)) = arg.split_once('/') {
            if committed.iter().any(|(n, m)| n == name && m == mode) {
                *arg = super::fixture(name, mode).to_string_lossy().into_owned();
            }
        }
    }
    args
}

/// `input` through the shell pipeline `filter`, which must succeed.
fn filtered(filter: &str, input: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut child = std::process::Command::new("sh")
        .args(["-c", filter])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run sh");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("sh output");
    let _ = writer.join();
    assert!(out.status.success(), "{filter} failed");
    out.stdout
}
