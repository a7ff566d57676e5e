//! The functions of `mo:core/Blob` and `mo:core/Principal` beyond their conversions:
//! `Blob.hash` (CRC-32, moc's `Prim.hashBlob`), `Principal.hash`, the principal classes
//! (`isCanister`, `isSelfAuthenticating`, `isReserved`: by the last byte) and
//! `Principal.toLedgerAccount`.

use super::args::{arg, wrong};
use super::view;
use crate::script::eval::{EResult, Interp};
use crate::script::value::Value;
use sha2::{Digest, Sha224};
use std::cell::RefCell;
use std::rc::Rc;

type R = EResult;

/// Argument `i`, a `Blob` (a text literal the checker did not type is its bytes).
fn blob_arg(a: &[Value], i: usize, who: &str) -> EResult<Rc<[u8]>> {
    match arg(a, i, who)? {
        Value::Blob(b) => Ok(b.clone()),
        Value::Text(t) => Ok(crate::script::compile::text_to_blob(t)),
        other => Err(wrong(who, "Blob", other)),
    }
}

/// Argument `i`, a `Principal`: its bytes.
fn principal_arg<'a>(a: &'a [Value], i: usize, who: &str) -> EResult<&'a [u8]> {
    match arg(a, i, who)? {
        Value::Principal(p) => Ok(p),
        other => Err(wrong(who, "Principal", other)),
    }
}

/// `Blob.empty()`.
pub fn blob_empty(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> R {
    Ok(Value::Blob(Rc::from(&[][..])))
}

/// `Blob.isEmpty(b)`.
pub fn blob_is_empty(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(blob_arg(a, 0, "Blob.isEmpty")?.is_empty()))
}

/// `Blob.toVarArray(b)`: its bytes as a `[var Nat8]`.
pub fn blob_to_var_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let b = blob_arg(a, 0, "Blob.toVarArray")?;
    it.alloc(16 * b.len() as u64)?;
    let bytes = b.iter().map(|x| Value::Nat8(*x)).collect();
    Ok(Value::VarArray(Rc::new(RefCell::new(bytes))))
}

/// `Blob.hash(b)`: the CRC-32 of its bytes, as `Nat32` (moc's `Prim.hashBlob`).
pub fn blob_hash(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let b = blob_arg(a, 0, "Blob.hash")?;
    it.ticks(b.len() as u64)?;
    Ok(Value::Nat32(crc32fast::hash(&b)))
}

/// `Principal.hash(p)`: `Blob.hash` of its bytes.
pub fn principal_hash(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Nat32(crc32fast::hash(principal_arg(
        a,
        0,
        "Principal.hash",
    )?)))
}

/// Whether the principal of argument 0 has at most `max` bytes (exactly, with `exact`) and
/// ends with the class byte `class` (the IC's principal classes).
fn of_class(a: &[Value], who: &str, exact: bool, class: u8) -> R {
    let p = principal_arg(a, 0, who)?;
    let size_ok = if exact { p.len() == 29 } else { p.len() <= 29 };
    Ok(Value::Bool(size_ok && p.last() == Some(&class)))
}

/// `Principal.isCanister(p)`: up to 29 bytes, the last 0x01 (opaque ids).
pub fn principal_is_canister(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    of_class(a, "Principal.isCanister", false, 1)
}

/// `Principal.isSelfAuthenticating(p)`: 29 bytes, the last 0x02.
pub fn principal_is_self_authenticating(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    of_class(a, "Principal.isSelfAuthenticating", true, 2)
}

/// `Principal.isReserved(p)`: up to 29 bytes, the last 0x7f.
pub fn principal_is_reserved(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    of_class(a, "Principal.isReserved", false, 127)
}

/// `Principal.toLedgerAccount(p, subAccount)`: the ICP ledger's account identifier, the
/// SHA-224 of `"\0Aaccount-id"`, the principal's bytes and the subaccount (32 zero bytes for
/// `null`), after its CRC-32 (big-endian).
pub fn principal_to_ledger_account(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Principal.toLedgerAccount";
    let p = principal_arg(a, 0, who)?;
    let sub = arg(a, 1, who)?;
    let mut sha = Sha224::new();
    sha.update(b"\x0Aaccount-id");
    sha.update(p);
    match view::option(it, sub)? {
        Some(Some(s)) => {
            let s = blob_arg(std::slice::from_ref(&s), 0, who)?;
            it.ticks(s.len() as u64)?;
            sha.update(s)
        }
        Some(None) => sha.update([0u8; 32]),
        None => return Err(wrong(who, "?Blob", sub)),
    }
    let hash = sha.finalize();
    let mut account = crc32fast::hash(&hash).to_be_bytes().to_vec();
    account.extend_from_slice(&hash);
    Ok(Value::Blob(Rc::from(account)))
}
