//! JSON as every command prints it (and the mount's `.json` files hold it).

use serde::Serialize;

/// `value` as the commands print JSON: pretty, with a final newline.
pub fn pretty(value: &impl Serialize) -> Result<Vec<u8>, serde_json::Error> {
    let mut out = serde_json::to_vec_pretty(value)?;
    out.push(b'\n');
    Ok(out)
}
