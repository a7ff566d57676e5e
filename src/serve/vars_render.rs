//! The stable variables of a snapshot rendered as `mo-mem vars` prints them (Motoko
//! `debug_show` text or JSON), one renderer for every front-end (the command, the MCP
//! server's `vars` tool).

use crate::analysis::OpenedHeap;
use crate::heap::render::{json_string, write_debug_show_as, write_json};
use crate::heap::value::{stable_variables, DecodeError};

/// How the variables are rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarsFormat {
    /// Motoko `debug_show` text, exactly as the canister prints it.
    Motoko,
    /// JSON (docs/formats.md; schemas `vars`, with one name `value`).
    Json,
}

/// The rendering, and each variable that did not decode (the others are rendered).
#[derive(Debug, Clone, Default)]
pub struct RenderedVars {
    /// The text `mo-mem vars` prints.
    pub text: String,
    /// One line per variable that failed: `stable variable `NAME`: why`.
    pub failures: Vec<String>,
}

/// The stable variables of `opened` (only `name` if given: an error if there is none),
/// rendered in `format`; with JSON, collections as their natural view unless `raw`.
pub fn render_vars(
    opened: &OpenedHeap,
    name: Option<&str>,
    format: VarsFormat,
    raw: bool,
) -> Result<RenderedVars, DecodeError> {
    let sig = opened.signature().map_err(Clone::clone)?;
    let mut vars = stable_variables(opened.heap(), sig)?;
    if let Some(name) = name {
        vars.retain(|v| *v.name == *name);
        if vars.is_empty() {
            return Err(DecodeError::NoSuchVariable(name.to_string()));
        }
    }
    let mut decoder = opened.decoder().map_err(Clone::clone)?;
    decoder.set_natural(format == VarsFormat::Json && !raw);
    let mut done = RenderedVars::default();
    let out = &mut done.text;
    let single = name.is_some();
    if format == VarsFormat::Json && !single {
        out.push('{');
    }
    let mut first = true;
    let floats = opened.heap().float_style();
    for var in &vars {
        let value = match decoder.deep(&var.value) {
            Ok(v) => v,
            Err(e) => {
                done.failures
                    .push(format!("stable variable `{}`: {e}", var.name));
                continue;
            }
        };
        match (format, single) {
            (VarsFormat::Motoko, true) => write_debug_show_as(&value, floats, out),
            (VarsFormat::Motoko, false) => {
                out.push_str(&var.name);
                out.push_str(" = ");
                write_debug_show_as(&value, floats, out);
            }
            (VarsFormat::Json, true) => write_json(&value, out),
            (VarsFormat::Json, false) => {
                if !first {
                    out.push(',');
                }
                out.push_str(&json_string(&var.name));
                out.push(':');
                write_json(&value, out);
            }
        }
        if format == VarsFormat::Motoko || single {
            out.push('\n');
        }
        first = false;
    }
    if format == VarsFormat::Json && !single {
        out.push_str("}\n");
    }
    Ok(done)
}
