//! `mo-mem mcp`: a Model Context Protocol server over stdio whose tools are the analyses
//! (`docs/agents.md`). A thin front-end: the snapshots it serves come from the same sources
//! as the mount's ([`served`]), each tool's answer is built by the library's own JSON
//! builders (the CLI's `--json` shapes, `docs/schemas/`), and every CLI limit holds.
//!
//! - [`served`]: the snapshots served, by name, each with its trust verdict.
//! - [`args`]: a tool's arguments, checked (unknown, missing or mistyped ones refused).
//! - [`answers`]: each tool's answer over `serve` and `analysis`.
//! - [`tools`]: the tools' names, descriptions and input and output schemas.
//! - [`server`]: the protocol (rmcp) over stdio.

pub mod answers;
pub mod args;
pub mod error;
pub mod served;
pub mod server;
pub mod tools;

pub use crate::serve::front::Sources;
pub use answers::{Answer, ToolError};
pub use served::Served;
pub use server::{serve_stdio, McpServer};
