//! Building the ic-agent for a network and identity, with the root key set or fetched.

use super::error::{explain, ErrorContext, IcError};
use super::identity::ResolvedIdentity;
use super::network::Network;
use super::retry::RetryPolicy;
use ic_agent::agent::HttpService;
use ic_agent::Agent;
use std::sync::Arc;
use std::time::Duration;

/// Everything needed to talk to one network as one identity.
#[derive(Clone)]
pub struct ConnectOptions {
    /// The network.
    pub network: Network,
    /// The identity calls are signed with.
    pub identity: ResolvedIdentity,
    /// An in-process HTTP transport replacing the network (tests, benchmarks).
    pub transport: Option<Arc<dyn HttpService>>,
    /// The root key (DER) to trust; `None`: built in for mainnet, fetched from other networks.
    pub root_key: Option<Vec<u8>>,
    /// Retry policy for transient failures.
    pub retry: RetryPolicy,
    /// How long to poll for a reply the replica accepted (HTTP 202) before giving up.
    pub max_polling_time: Duration,
}

impl ConnectOptions {
    /// Options with the defaults: no custom transport, root key per network, default retries.
    pub fn new(network: Network, identity: ResolvedIdentity) -> Self {
        Self {
            network,
            identity,
            transport: None,
            root_key: None,
            retry: RetryPolicy::default(),
            max_polling_time: Duration::from_secs(300),
        }
    }
}

/// A ready agent plus what the commands report about it.
#[derive(Clone)]
pub struct Connection {
    /// The agent.
    pub agent: Agent,
    /// The network.
    pub network: Network,
    /// The identity in use.
    pub identity: ResolvedIdentity,
    /// Retry policy for transient failures.
    pub retry: RetryPolicy,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Connection({} as {:?})",
            self.network.label(),
            self.identity
        )
    }
}

/// Builds the agent; for networks other than mainnet sets the given root key or fetches it.
pub async fn connect(opts: ConnectOptions) -> Result<Connection, IcError> {
    let mut builder = Agent::builder()
        .with_url(opts.network.url())
        .with_arc_identity(opts.identity.identity.clone())
        .with_max_polling_time(opts.max_polling_time)
        // the hosted protocol reads by query: check the replica nodes' signatures, always
        .with_verify_query_signatures(true);
    if let Some(t) = opts.transport.clone() {
        builder = builder.with_arc_http_middleware(t);
    }
    let agent = builder
        .build()
        .map_err(|e| IcError::Config(format!("--network {}: {e}", opts.network.url())))?;
    let label = opts.network.label();
    match (&opts.root_key, opts.network.is_mainnet()) {
        (Some(key), _) => agent.set_root_key(key.clone()),
        (None, true) => {}
        (None, false) => {
            let ctx = ErrorContext {
                op: "fetch the replica's root key",
                canister: "-",
                caller: &opts.identity.principal,
                network: &label,
                snapshot: None,
            };
            opts.retry
                .run(true, || agent.fetch_root_key())
                .await
                .map_err(|e| explain(&ctx, e))?;
        }
    }
    Ok(Connection {
        agent,
        network: opts.network,
        identity: opts.identity,
        retry: opts.retry,
    })
}
