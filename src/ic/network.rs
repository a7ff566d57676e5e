//! `--network ic|local|<URL>`: which IC to talk to.

use super::error::IcError;

/// The mainnet API boundary.
pub const MAINNET_URL: &str = "https://icp-api.io";
/// The usual local replica address (dfx's default; icp-cli's local network is usually `http://127.0.0.1:8000`).
pub const LOCAL_URL: &str = "http://127.0.0.1:4943";

/// A network to talk to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Network {
    /// The IC mainnet: its root key is built into the agent and never fetched.
    Mainnet,
    /// Any other replica, reached by URL; its root key is fetched from it (or given).
    Url(String),
}

impl Network {
    /// Parses `ic`, `local`, or an `http(s)://` URL.
    pub fn parse(s: &str) -> Result<Self, IcError> {
        match s {
            "ic" | "mainnet" => Ok(Self::Mainnet),
            "local" => Ok(Self::Url(LOCAL_URL.into())),
            url if url.starts_with("http://") || url.starts_with("https://") => {
                let trimmed = url.trim_end_matches('/');
                if trimmed == MAINNET_URL
                    || trimmed == "https://ic0.app"
                    || trimmed == "https://icp0.io"
                {
                    Ok(Self::Mainnet)
                } else {
                    Ok(Self::Url(trimmed.into()))
                }
            }
            other => Err(IcError::Config(format!(
                "--network {other:?}: expected `ic`, `local` or an http(s):// URL"
            ))),
        }
    }

    /// The URL requests go to.
    pub fn url(&self) -> &str {
        match self {
            Self::Mainnet => MAINNET_URL,
            Self::Url(u) => u,
        }
    }

    /// Whether this is mainnet (root key built in, never fetched).
    pub fn is_mainnet(&self) -> bool {
        matches!(self, Self::Mainnet)
    }

    /// The label recorded in manifests and shown to users: `ic` or the URL.
    pub fn label(&self) -> String {
        match self {
            Self::Mainnet => "ic".into(),
            Self::Url(u) => u.clone(),
        }
    }

    /// The key under which `canister_ids.json` files list this network's IDs.
    pub fn ids_key(&self) -> &'static str {
        match self {
            Self::Mainnet => "ic",
            Self::Url(_) => "local",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_and_urls() {
        assert_eq!(Network::parse("ic").unwrap(), Network::Mainnet);
        assert_eq!(
            Network::parse("https://icp-api.io/").unwrap(),
            Network::Mainnet
        );
        assert_eq!(Network::parse("local").unwrap().url(), LOCAL_URL);
        assert_eq!(
            Network::parse("http://127.0.0.1:8080/").unwrap(),
            Network::Url("http://127.0.0.1:8080".into())
        );
        assert!(Network::parse("ftp://x").is_err());
    }
}
