//! The emulator as an HTTP service on loopback (in process: `harness.rs`).

use super::Emulator;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

/// Serves the emulator on `127.0.0.1:<port>` (HTTP/1.1, keep-alive) until the task is aborted.
pub async fn serve(emu: Emulator) -> (std::net::SocketAddr, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        loop {
            let Ok((sock, _)) = listener.accept().await else {
                continue;
            };
            let emu = emu.clone();
            tokio::spawn(async move {
                let _ = connection(emu, sock).await;
            });
        }
    });
    (addr, task)
}

async fn connection(emu: Emulator, sock: tokio::net::TcpStream) -> std::io::Result<()> {
    let (r, mut w) = sock.into_split();
    let mut r = BufReader::new(r);
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).await? == 0 {
            return Ok(());
        }
        let mut it = line.split_whitespace();
        let method = it.next().unwrap_or("").to_string();
        let path = it.next().unwrap_or("").to_string();
        let mut len = 0usize;
        loop {
            let mut h = String::new();
            if r.read_line(&mut h).await? == 0 {
                return Ok(());
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                if k.eq_ignore_ascii_case("content-length") {
                    len = v.trim().parse().unwrap_or(0);
                }
            }
        }
        let mut body = vec![0u8; len.min(8 << 20)];
        r.read_exact(&mut body).await?;
        let e = emu.clone();
        let (status, out) = tokio::task::spawn_blocking(move || e.handle(&method, &path, &body))
            .await
            .unwrap_or((500, b"emulator panicked".to_vec()));
        let head = format!(
            "HTTP/1.1 {status} X\r\ncontent-type: application/cbor\r\ncontent-length: {}\r\n\r\n",
            out.len()
        );
        w.write_all(head.as_bytes()).await?;
        w.write_all(&out).await?;
        w.flush().await?;
    }
}
