//! Headless Chromium driven over the DevTools protocol (`--remote-debugging-pipe`: JSON
//! messages ending in NUL on fds 3 and 4), with the network off: a proxy that does not exist,
//! every host name unresolvable, and the page's network emulated offline. A page records every
//! request it makes, every exception its scripts throw and every error the browser logs (a
//! Content Security Policy refusal among them).

use std::io::{BufRead, BufReader, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{json, Value as Json};

/// How long one protocol command may take.
const REPLY_TIMEOUT: Duration = Duration::from_secs(20);

/// A running headless Chromium.
pub struct Browser {
    child: Child,
    to: std::fs::File,
    from: Receiver<Json>,
    next_id: u64,
    /// Events received (with their `sessionId`), oldest first.
    pub events: Vec<Json>,
    _profile: tempfile::TempDir,
}

/// A pipe: (read end, write end), both close-on-exec.
fn pipe() -> (OwnedFd, OwnedFd) {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two descriptors into the array it is given.
    let rc = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    assert_eq!(rc, 0, "pipe2: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened and are owned by nobody else.
    unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) }
}

impl Browser {
    /// Starts `chromium` (headless, sandbox off when root, a fresh profile, no network).
    pub fn launch() -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let (chrome_reads, we_write) = pipe();
        let (we_read, chrome_writes) = pipe();
        let (r, w) = (chrome_reads.as_raw_fd(), chrome_writes.as_raw_fd());
        let mut cmd = Command::new("chromium");
        cmd.args([
            "--headless",
            "--remote-debugging-pipe",
            "--disable-gpu",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-default-apps",
            "--hide-scrollbars",
            "--mute-audio",
            "--proxy-server=http://127.0.0.1:9",
            "--proxy-bypass-list=<-loopback>",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "--window-size=1280,1400",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("about:blank")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
        // SAFETY: geteuid takes no arguments and cannot fail.
        if unsafe { libc::geteuid() } == 0 {
            // Chromium's sandbox refuses to run as root.
            cmd.arg("--no-sandbox");
        }
        // SAFETY: between fork and exec only async-signal-safe calls (fcntl, dup2): the pipe
        // ends become the child's fds 3 (commands in) and 4 (replies out), without
        // close-on-exec (copied above 10 first, so neither is overwritten by the other).
        unsafe {
            cmd.pre_exec(move || {
                let (r2, w2) = (
                    libc::fcntl(r, libc::F_DUPFD, 10),
                    libc::fcntl(w, libc::F_DUPFD, 10),
                );
                if r2 < 0 || w2 < 0 || libc::dup2(r2, 3) < 0 || libc::dup2(w2, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().expect("spawn chromium");
        drop((chrome_reads, chrome_writes));
        let (tx, rx) = std::sync::mpsc::channel();
        let reader = std::fs::File::from(we_read);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(reader);
            loop {
                let mut msg = Vec::new();
                match reader.read_until(0, &mut msg) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                }
                msg.pop();
                let Ok(value) = serde_json::from_slice::<Json>(&msg) else {
                    return;
                };
                if tx.send(value).is_err() {
                    return;
                }
            }
        });
        Browser {
            child,
            to: std::fs::File::from(we_write),
            from: rx,
            next_id: 1,
            events: Vec::new(),
            _profile: profile,
        }
    }

    /// Sends `method` with `params` (to `session`'s page, else to the browser) and returns its
    /// result; panics on an error reply or after [`REPLY_TIMEOUT`].
    pub fn call(&mut self, session: Option<&str>, method: &str, params: Json) -> Json {
        let id = self.next_id;
        self.next_id += 1;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        let mut bytes = serde_json::to_vec(&msg).unwrap();
        bytes.push(0);
        self.to
            .write_all(&bytes)
            .unwrap_or_else(|e| panic!("{method}: {e}"));
        let deadline = Instant::now() + REPLY_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let value = match self.from.recv_timeout(left) {
                Ok(v) => v,
                Err(RecvTimeoutError::Timeout) => panic!("{method}: no reply in {REPLY_TIMEOUT:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("{method}: chromium exited"),
            };
            if value["id"] == json!(id) {
                if let Some(e) = value.get("error") {
                    panic!("{method}: {e}");
                }
                return value["result"].clone();
            }
            if value.get("method").is_some() {
                self.events.push(value);
            }
        }
    }

    /// Waits until an event `method` of `session` has arrived (or panics after
    /// [`REPLY_TIMEOUT`]).
    pub fn wait_for(&mut self, session: &str, method: &str) {
        let seen = |events: &[Json]| {
            events
                .iter()
                .any(|e| e["method"] == json!(method) && e["sessionId"] == json!(session))
        };
        let deadline = Instant::now() + REPLY_TIMEOUT;
        while !seen(&self.events) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.from.recv_timeout(left) {
                Ok(v) => self.events.push(v),
                Err(e) => panic!("waiting for {method}: {e:?}"),
            }
        }
    }

    /// Opens `file` in a new page with the network off; its session id once it has loaded.
    pub fn open(&mut self, file: &Path) -> Page {
        let target = self.call(None, "Target.createTarget", json!({"url": "about:blank"}));
        let attached = self.call(
            None,
            "Target.attachToTarget",
            json!({"targetId": target["targetId"], "flatten": true}),
        );
        let session = attached["sessionId"].as_str().unwrap().to_string();
        let s = Some(session.as_str());
        for domain in [
            "Page.enable",
            "Network.enable",
            "Runtime.enable",
            "Log.enable",
        ] {
            self.call(s, domain, json!({}));
        }
        self.call(
            s,
            "Network.emulateNetworkConditions",
            json!({"offline": true, "latency": 0, "downloadThroughput": 0, "uploadThroughput": 0}),
        );
        self.call(
            s,
            "Emulation.setDeviceMetricsOverride",
            json!({"width": 1280, "height": 1400, "deviceScaleFactor": 1, "mobile": false}),
        );
        let url = format!("file://{}", file.display());
        self.call(s, "Page.navigate", json!({ "url": url }));
        self.wait_for(&session, "Page.loadEventFired");
        let page = Page { session, url };
        // inferno's script lays the picture out in a timeout after its load event.
        self.eval(&page, "new Promise(r => setTimeout(() => r(true), 200))");
        page
    }

    /// The value of JavaScript `expression` in `page` (a promise awaited); panics if it throws.
    pub fn eval(&mut self, page: &Page, expression: &str) -> Json {
        let out = self.call(
            Some(&page.session),
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(e) = out.get("exceptionDetails") {
            panic!("{expression}: {e}");
        }
        out["result"]["value"].clone()
    }

    /// A left click at (`x`, `y`) in `page`'s viewport, as a mouse makes it.
    pub fn click(&mut self, page: &Page, x: f64, y: f64) {
        for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
            self.call(
                Some(&page.session),
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    /// Clicks the middle of the element `selector` selects (scrolled into view first).
    pub fn click_on(&mut self, page: &Page, selector: &str) {
        let at = self.eval(
            page,
            &format!(
                "(() => {{ const e = document.querySelector({0}); e.scrollIntoView({{block: 'center'}}); \
                 const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()",
                json!(selector)
            ),
        );
        let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        self.click(page, x, y);
    }

    /// A PNG of `page`'s viewport, written to `to`.
    pub fn screenshot(&mut self, page: &Page, to: &Path) {
        let shot = self.call(
            Some(&page.session),
            "Page.captureScreenshot",
            json!({"format": "png"}),
        );
        let png = base64_decode(shot["data"].as_str().unwrap());
        assert!(png.starts_with(b"\x89PNG"), "not a PNG");
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::write(to, png).unwrap();
    }

    /// The URLs `page` requested, in order.
    pub fn requests(&self, page: &Page) -> Vec<String> {
        self.of_page(page, "Network.requestWillBeSent")
            .map(|e| {
                e["params"]["request"]["url"]
                    .as_str()
                    .unwrap_or("?")
                    .to_string()
            })
            .collect()
    }

    /// The exceptions thrown in `page` and the errors the browser logged for it.
    pub fn errors(&self, page: &Page) -> Vec<String> {
        let thrown = self
            .of_page(page, "Runtime.exceptionThrown")
            .map(|e| e["params"]["exceptionDetails"].to_string());
        let logged = self
            .of_page(page, "Log.entryAdded")
            .filter(|e| e["params"]["entry"]["level"] == json!("error"))
            .map(|e| e["params"]["entry"]["text"].to_string());
        let console = self
            .of_page(page, "Runtime.consoleAPICalled")
            .filter(|e| e["params"]["type"] == json!("error"))
            .map(|e| e["params"]["args"].to_string());
        thrown.chain(logged).chain(console).collect()
    }

    fn of_page<'e>(&'e self, page: &'e Page, method: &'e str) -> impl Iterator<Item = &'e Json> {
        self.events
            .iter()
            .filter(move |e| e["method"] == json!(method) && e["sessionId"] == json!(page.session))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A page open in the browser.
pub struct Page {
    session: String,
    /// The URL it was opened from.
    pub url: String,
}

/// Bytes of standard base64 (padding optional; whitespace not allowed).
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {c:#x}"),
        }
    };
    let text = text.trim_end_matches('=').as_bytes();
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    for chunk in text.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= value(c) << (18 - 6 * i);
        }
        for i in 0..chunk.len().saturating_sub(1) {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

/// Where the tests keep their screenshots: `<target>/report-html`.
pub fn artifacts() -> PathBuf {
    crate::common::materialized_root()
        .parent()
        .unwrap()
        .join("report-html")
}
