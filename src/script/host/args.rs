//! Argument checks shared by the host values.

use super::HostError;
use crate::script::value::Value;

/// Fails unless `args` has exactly `n` values.
pub fn check_arity(name: &str, args: &[Value], n: usize) -> Result<(), HostError> {
    if args.len() == n {
        Ok(())
    } else {
        Err(HostError::Misuse(format!(
            "{name} takes {n} argument(s), got {}",
            args.len()
        )))
    }
}

/// Argument `i` as a `u64` (any non-negative integer type).
pub fn arg_u64(name: &str, args: &[Value], i: usize) -> Result<u64, HostError> {
    let bad = || {
        HostError::Misuse(format!(
            "{name}: argument {} must be a Nat below 2^64",
            i + 1
        ))
    };
    match args.get(i) {
        Some(Value::Nat(n)) | Some(Value::Nat64(n)) => Ok(*n),
        Some(Value::Int(n)) | Some(Value::Int64(n)) => u64::try_from(*n).map_err(|_| bad()),
        Some(Value::Nat32(n)) => Ok(u64::from(*n)),
        Some(Value::Nat16(n)) => Ok(u64::from(*n)),
        Some(Value::Nat8(n)) => Ok(u64::from(*n)),
        _ => Err(bad()),
    }
}

/// Argument `i` as text.
pub fn arg_text<'a>(name: &str, args: &'a [Value], i: usize) -> Result<&'a str, HostError> {
    match args.get(i) {
        Some(Value::Text(t)) => Ok(t),
        _ => Err(HostError::Misuse(format!(
            "{name}: argument {} must be a Text",
            i + 1
        ))),
    }
}
