//! Retries with exponential backoff for transient failures (see [`super::error::is_transient`]).

use super::error::is_transient;
use ic_agent::AgentError;
use std::future::Future;
use std::time::Duration;

/// How often and how patiently to retry a transient failure.
#[derive(Debug, Clone, Copy)]
pub struct RetryPolicy {
    /// Attempts in all, including the first (at least 1).
    pub attempts: u32,
    /// Delay before the first retry.
    pub initial_delay: Duration,
    /// Longest delay between two attempts.
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            attempts: 8,
            initial_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(16),
        }
    }
}

impl RetryPolicy {
    /// The delay before retry number `n` (0-based): doubling from `initial_delay`, capped.
    pub fn delay(&self, n: u32) -> Duration {
        let factor = 1u32.checked_shl(n.min(20)).unwrap_or(u32::MAX);
        self.initial_delay
            .checked_mul(factor)
            .unwrap_or(self.max_delay)
            .min(self.max_delay)
    }

    /// Runs `call` until it succeeds, fails permanently, or the attempts are used up. A call that
    /// is not `idempotent` is retried only when the IC surely did not execute it (HTTP 429/503,
    /// transient reject), never after a timeout or transport error that leaves its fate unknown.
    pub async fn run<T, F, Fut>(&self, idempotent: bool, mut call: F) -> Result<T, AgentError>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, AgentError>>,
    {
        let attempts = self.attempts.max(1);
        let mut n = 0;
        loop {
            match call().await {
                Ok(v) => return Ok(v),
                Err(e) if retryable(&e, idempotent) && n + 1 < attempts => {
                    tracing::debug!(
                        "transient error, retry {} after {:?}: {e}",
                        n + 1,
                        self.delay(n)
                    );
                    tokio::time::sleep(self.delay(n)).await;
                    n += 1;
                }
                Err(e) => return Err(e),
            }
        }
    }
}

fn retryable(err: &AgentError, idempotent: bool) -> bool {
    if idempotent {
        return is_transient(err);
    }
    match err {
        AgentError::HttpError(p) => p.status == 429 || p.status == 503,
        AgentError::CertifiedReject { .. } | AgentError::UncertifiedReject { .. } => {
            is_transient(err)
        }
        _ => false,
    }
}
