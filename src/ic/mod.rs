//! The Internet Computer client: snapshot API calls through ic-agent.
