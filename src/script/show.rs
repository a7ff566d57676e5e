//! `debug_show` the way a compiled canister prints it, for sessions over a snapshot.
//!
//! The script engine prints like moc's interpreter; a compiled canister differs in one
//! place: a `Float` shows with six decimals (`9.500000`, as `mo-mem vars`), not as the
//! shortest `%.17g` form (`9.5`), and a NaN is `NaN` (`nan` or `-nan` in the classical RTS of
//! moc before 0.13.4, [`FloatStyle::CompiledLibc`]). Snapshot sessions print in their
//! snapshot's style so that `debug_show vars.x` equals `mo-mem vars SNAPSHOT x`: the same
//! writer, another float style.

use super::session::Evaluation;
use super::value::show::debug_show_as;
use super::value::Value;
use crate::heap::render::FloatStyle;

/// `debug_show v` as a compiled canister prints it (a NaN as today's RTS prints it).
pub fn canister_show(v: &Value) -> String {
    debug_show_as(v, FloatStyle::Compiled)
}

/// The printed output, then the value in the session's canister style (the snapshot's
/// [`FloatStyle`]) unless it is `()`.
pub fn render(ev: &Evaluation) -> String {
    let mut s = ev.output.clone();
    if !matches!(ev.value, Value::Unit) {
        s.push_str(&ev.show_as(ev.floats));
        s.push('\n');
    }
    s
}
