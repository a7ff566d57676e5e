//! The `ic0` system API as far as moc-generated code uses it: the import table (names and
//! signatures, pointers `i32` or `i64` by memory width) and the host implementations.

use wasmi::{Caller, Error, FuncType, Val, ValType};

use super::host::{Host, HostTrap, MessageKind};

/// A parameter or result type in the table: a fixed width, or a pointer/size (the memory's width).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ty {
    I32,
    I64,
    Ptr,
}

/// An `ic0` function the runner implements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    MsgArgDataSize,
    MsgArgDataCopy,
    MsgCallerSize,
    MsgCallerCopy,
    MsgRejectCode,
    MsgRejectMsgSize,
    MsgRejectMsgCopy,
    MsgDeadline,
    MsgReplyDataAppend,
    MsgReply,
    MsgReject,
    MsgCyclesZero128,
    MsgCyclesAccept128,
    MsgCyclesZero64,
    MsgCyclesAccept64,
    CyclesBurn128,
    CanisterSelfSize,
    CanisterSelfCopy,
    CanisterCycleBalance64,
    CanisterCycleBalance128,
    CanisterStatus,
    CanisterVersion,
    MsgMethodNameSize,
    MsgMethodNameCopy,
    AcceptMessage,
    CallNew,
    CallNoop,
    CallPerform,
    StableSize,
    StableGrow,
    StableWrite,
    StableRead,
    Stable64Size,
    Stable64Grow,
    Stable64Write,
    Stable64Read,
    RootKeySize,
    RootKeyCopy,
    CertifiedDataSet,
    DataCertificatePresent,
    DataCertificateSize,
    DataCertificateCopy,
    Time,
    GlobalTimerSet,
    PerformanceCounter,
    IsController,
    InReplicatedExecution,
    DebugPrint,
    Trap,
    CostZero,
    CostZeroResult,
}

use Ty::{Ptr, I32, I64};

/// `(name, api, params, results)` of every supported `ic0` import.
const TABLE: &[(&str, Api, &[Ty], &[Ty])] = &[
    ("msg_arg_data_size", Api::MsgArgDataSize, &[], &[Ptr]),
    (
        "msg_arg_data_copy",
        Api::MsgArgDataCopy,
        &[Ptr, Ptr, Ptr],
        &[],
    ),
    ("msg_caller_size", Api::MsgCallerSize, &[], &[Ptr]),
    ("msg_caller_copy", Api::MsgCallerCopy, &[Ptr, Ptr, Ptr], &[]),
    ("msg_reject_code", Api::MsgRejectCode, &[], &[I32]),
    ("msg_reject_msg_size", Api::MsgRejectMsgSize, &[], &[Ptr]),
    (
        "msg_reject_msg_copy",
        Api::MsgRejectMsgCopy,
        &[Ptr, Ptr, Ptr],
        &[],
    ),
    ("msg_deadline", Api::MsgDeadline, &[], &[I64]),
    (
        "msg_reply_data_append",
        Api::MsgReplyDataAppend,
        &[Ptr, Ptr],
        &[],
    ),
    ("msg_reply", Api::MsgReply, &[], &[]),
    ("msg_reject", Api::MsgReject, &[Ptr, Ptr], &[]),
    (
        "msg_cycles_available128",
        Api::MsgCyclesZero128,
        &[Ptr],
        &[],
    ),
    ("msg_cycles_refunded128", Api::MsgCyclesZero128, &[Ptr], &[]),
    (
        "msg_cycles_accept128",
        Api::MsgCyclesAccept128,
        &[I64, I64, Ptr],
        &[],
    ),
    ("msg_cycles_available", Api::MsgCyclesZero64, &[], &[I64]),
    ("msg_cycles_refunded", Api::MsgCyclesZero64, &[], &[I64]),
    ("msg_cycles_accept", Api::MsgCyclesAccept64, &[I64], &[I64]),
    ("cycles_burn128", Api::CyclesBurn128, &[I64, I64, Ptr], &[]),
    ("canister_self_size", Api::CanisterSelfSize, &[], &[Ptr]),
    (
        "canister_self_copy",
        Api::CanisterSelfCopy,
        &[Ptr, Ptr, Ptr],
        &[],
    ),
    (
        "canister_cycle_balance",
        Api::CanisterCycleBalance64,
        &[],
        &[I64],
    ),
    (
        "canister_cycle_balance128",
        Api::CanisterCycleBalance128,
        &[Ptr],
        &[],
    ),
    (
        "canister_liquid_cycle_balance128",
        Api::CanisterCycleBalance128,
        &[Ptr],
        &[],
    ),
    ("canister_status", Api::CanisterStatus, &[], &[I32]),
    ("canister_version", Api::CanisterVersion, &[], &[I64]),
    ("msg_method_name_size", Api::MsgMethodNameSize, &[], &[Ptr]),
    (
        "msg_method_name_copy",
        Api::MsgMethodNameCopy,
        &[Ptr, Ptr, Ptr],
        &[],
    ),
    ("accept_message", Api::AcceptMessage, &[], &[]),
    (
        "call_new",
        Api::CallNew,
        &[Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr],
        &[],
    ),
    ("call_on_cleanup", Api::CallNoop, &[Ptr, Ptr], &[]),
    ("call_data_append", Api::CallNoop, &[Ptr, Ptr], &[]),
    ("call_with_best_effort_response", Api::CallNoop, &[I32], &[]),
    ("call_cycles_add", Api::CallNoop, &[I64], &[]),
    ("call_cycles_add128", Api::CallNoop, &[I64, I64], &[]),
    ("call_perform", Api::CallPerform, &[], &[I32]),
    ("stable_size", Api::StableSize, &[], &[I32]),
    ("stable_grow", Api::StableGrow, &[I32], &[I32]),
    ("stable_write", Api::StableWrite, &[I32, I32, I32], &[]),
    ("stable_read", Api::StableRead, &[I32, I32, I32], &[]),
    ("stable64_size", Api::Stable64Size, &[], &[I64]),
    ("stable64_grow", Api::Stable64Grow, &[I64], &[I64]),
    ("stable64_write", Api::Stable64Write, &[I64, I64, I64], &[]),
    ("stable64_read", Api::Stable64Read, &[I64, I64, I64], &[]),
    ("root_key_size", Api::RootKeySize, &[], &[Ptr]),
    ("root_key_copy", Api::RootKeyCopy, &[Ptr, Ptr, Ptr], &[]),
    (
        "certified_data_set",
        Api::CertifiedDataSet,
        &[Ptr, Ptr],
        &[],
    ),
    (
        "data_certificate_present",
        Api::DataCertificatePresent,
        &[],
        &[I32],
    ),
    (
        "data_certificate_size",
        Api::DataCertificateSize,
        &[],
        &[Ptr],
    ),
    (
        "data_certificate_copy",
        Api::DataCertificateCopy,
        &[Ptr, Ptr, Ptr],
        &[],
    ),
    ("time", Api::Time, &[], &[I64]),
    ("global_timer_set", Api::GlobalTimerSet, &[I64], &[I64]),
    (
        "performance_counter",
        Api::PerformanceCounter,
        &[I32],
        &[I64],
    ),
    ("is_controller", Api::IsController, &[Ptr, Ptr], &[I32]),
    (
        "in_replicated_execution",
        Api::InReplicatedExecution,
        &[],
        &[I32],
    ),
    ("debug_print", Api::DebugPrint, &[Ptr, Ptr], &[]),
    ("trap", Api::Trap, &[Ptr, Ptr], &[]),
    ("cost_call", Api::CostZero, &[I64, I64, Ptr], &[]),
    ("cost_create_canister", Api::CostZero, &[Ptr], &[]),
    ("cost_http_request", Api::CostZero, &[I64, I64, Ptr], &[]),
    (
        "cost_sign_with_ecdsa",
        Api::CostZeroResult,
        &[Ptr, Ptr, I32, Ptr],
        &[I32],
    ),
    (
        "cost_sign_with_schnorr",
        Api::CostZeroResult,
        &[Ptr, Ptr, I32, Ptr],
        &[I32],
    ),
    (
        "cost_vetkd_derive_key",
        Api::CostZeroResult,
        &[Ptr, Ptr, I32, Ptr],
        &[I32],
    ),
];

/// The error code `call_perform` returns: the call could not be enqueued (SYS_TRANSIENT).
const CALL_PERFORM_FAILED: i32 = 2;

/// How the runner resolves one function import.
#[derive(Debug, Clone)]
pub enum Resolution {
    /// A supported `ic0` function.
    Known(Api),
    /// Not implemented: instantiating works, calling it is an error naming `module.name`.
    Unsupported(String),
    /// A supported name with the wrong signature.
    BadSignature {
        /// The signature the runner implements, for the error message.
        expected: String,
    },
}

fn concrete(t: Ty, memory64: bool) -> ValType {
    match t {
        I32 => ValType::I32,
        I64 => ValType::I64,
        Ptr if memory64 => ValType::I64,
        Ptr => ValType::I32,
    }
}

/// Writes a signature as `(i32, i64) -> (i32)`.
pub fn show_signature(params: &[ValType], results: &[ValType]) -> String {
    let list = |ts: &[ValType]| {
        ts.iter()
            .map(|t| format!("{t:?}").to_lowercase())
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!("({}) -> ({})", list(params), list(results))
}

/// Resolves the import `module.name` of type `ty` for a module with 32- or 64-bit memory.
pub fn resolve(module: &str, name: &str, ty: &FuncType, memory64: bool) -> Resolution {
    let entry = (module == "ic0")
        .then(|| TABLE.iter().find(|(n, ..)| *n == name))
        .flatten();
    let Some((_, api, params, results)) = entry else {
        return Resolution::Unsupported(format!("{module}.{name}"));
    };
    let params: Vec<ValType> = params.iter().map(|t| concrete(*t, memory64)).collect();
    let results: Vec<ValType> = results.iter().map(|t| concrete(*t, memory64)).collect();
    if ty.params() == params.as_slice() && ty.results() == results.as_slice() {
        Resolution::Known(*api)
    } else {
        Resolution::BadSignature {
            expected: show_signature(&params, &results),
        }
    }
}

fn trap(msg: impl Into<String>) -> Error {
    Error::host(HostTrap::Violation(msg.into()))
}

/// Parameter `i` as an unsigned 64-bit number (i32 zero-extended).
fn arg(params: &[Val], i: usize) -> Result<u64, Error> {
    match params.get(i) {
        Some(Val::I32(v)) => Ok(u64::from(*v as u32)),
        Some(Val::I64(v)) => Ok(*v as u64),
        _ => Err(trap(format!("ic0: missing integer argument {i}"))),
    }
}

/// Writes `v` as the single result, in the declared type.
fn ret(results: &mut [Val], v: u64) -> Result<(), Error> {
    let slot = results
        .first_mut()
        .ok_or_else(|| trap("ic0: missing result slot"))?;
    *slot = match slot {
        Val::I32(_) => Val::I32(v as u32 as i32),
        _ => Val::I64(v as i64),
    };
    Ok(())
}

/// A `usize` range `[ptr, ptr+len)` within `limit`, or a trap naming `what`.
fn range(ptr: u64, len: u64, limit: usize, what: &str) -> Result<std::ops::Range<usize>, Error> {
    let end = ptr.checked_add(len);
    match end {
        Some(end) if end <= limit as u64 => Ok(ptr as usize..end as usize),
        _ => Err(trap(format!(
            "{what}: range {ptr}+{len} is out of bounds (size {limit})"
        ))),
    }
}

/// The main memory: the one the runner recorded, or (during the start function) the export.
fn memory(caller: &Caller<'_, Host>) -> Result<wasmi::Memory, Error> {
    if let Some(m) = caller.data().memory {
        return Ok(m);
    }
    caller
        .get_export(super::instrument::MEMORY_EXPORT)
        .and_then(wasmi::Extern::into_memory)
        .ok_or_else(|| trap("ic0 called before the memory was set up"))
}

/// Reads `len` bytes at `ptr` from main memory (at most `max`).
fn read_mem(
    caller: &Caller<'_, Host>,
    ptr: u64,
    len: u64,
    max: u64,
    what: &str,
) -> Result<Vec<u8>, Error> {
    if len > max {
        return Err(trap(format!(
            "{what}: {len} bytes exceed the limit of {max}"
        )));
    }
    let mem = memory(caller)?;
    let data = mem.data(caller);
    let r = range(ptr, len, data.len(), what)?;
    Ok(data[r].to_vec())
}

/// Writes `bytes` at `ptr` into main memory.
fn write_mem(
    caller: &mut Caller<'_, Host>,
    ptr: u64,
    bytes: &[u8],
    what: &str,
) -> Result<(), Error> {
    let mem = memory(caller)?;
    let data = mem.data_mut(caller);
    let r = range(ptr, bytes.len() as u64, data.len(), what)?;
    data[r].copy_from_slice(bytes);
    Ok(())
}

/// The `*_copy(dst, offset, size)` pattern: copies `source[offset..offset+size]` to `dst`.
fn copy_out(
    caller: &mut Caller<'_, Host>,
    params: &[Val],
    what: &str,
    source: impl Fn(&Host) -> &[u8],
) -> Result<(), Error> {
    let (dst, offset, size) = (arg(params, 0)?, arg(params, 1)?, arg(params, 2)?);
    let mem = memory(caller)?;
    let (data, host) = mem.data_and_store_mut(&mut *caller);
    let src = source(host);
    let s = range(offset, size, src.len(), what)?;
    let d = range(dst, size, data.len(), what)?;
    data[d].copy_from_slice(&src[s]);
    Ok(())
}

fn write_u128(caller: &mut Caller<'_, Host>, dst: u64, v: u128, what: &str) -> Result<(), Error> {
    write_mem(caller, dst, &v.to_le_bytes(), what)
}

const PAGE: u64 = 65536;

/// Grows stable memory by `pages`; returns the old page count or `None` if over the limit.
fn stable_grow(host: &mut Host, pages: u64, max_bytes: u64) -> Option<u64> {
    let old = host.stable.len() as u64 / PAGE;
    let new_bytes = old.checked_add(pages)?.checked_mul(PAGE)?;
    if new_bytes > max_bytes.min(host.cfg.max_stable_bytes) {
        return None;
    }
    host.stable.resize(usize::try_from(new_bytes).ok()?, 0);
    Some(old)
}

fn stable_write(
    caller: &mut Caller<'_, Host>,
    offset: u64,
    src: u64,
    size: u64,
) -> Result<(), Error> {
    let mem = memory(caller)?;
    let (data, host) = mem.data_and_store_mut(&mut *caller);
    let s = range(src, size, data.len(), "stable_write (main memory)")?;
    let d = range(offset, size, host.stable.len(), "stable_write")?;
    host.stable[d].copy_from_slice(&data[s]);
    Ok(())
}

fn stable_read(
    caller: &mut Caller<'_, Host>,
    dst: u64,
    offset: u64,
    size: u64,
) -> Result<(), Error> {
    let mem = memory(caller)?;
    let (data, host) = mem.data_and_store_mut(&mut *caller);
    let s = range(offset, size, host.stable.len(), "stable_read")?;
    let d = range(dst, size, data.len(), "stable_read (main memory)")?;
    data[d].copy_from_slice(&host.stable[s]);
    Ok(())
}

/// `msg_reply_data_append`: appends to the reply, if one is possible here and fits.
fn msg_reply_data_append(
    caller: &mut Caller<'_, Host>,
    params: &[Val],
    max_msg: u64,
) -> Result<(), Error> {
    let (src, size) = (arg(params, 0)?, arg(params, 1)?);
    let host = caller.data();
    if !host.kind.replies() || host.ctx.replied || host.ctx.rejected.is_some() {
        return Err(trap("msg_reply_data_append: no reply is possible here"));
    }
    let room = max_msg.saturating_sub(host.ctx.reply.len() as u64);
    let bytes = read_mem(caller, src, size, room, "msg_reply_data_append")?;
    caller.data_mut().ctx.reply.extend_from_slice(&bytes);
    Ok(())
}

/// `msg_reply`: the reply is sent, once.
fn msg_reply(caller: &mut Caller<'_, Host>) -> Result<(), Error> {
    let host = caller.data_mut();
    if !host.kind.replies() || host.ctx.replied || host.ctx.rejected.is_some() {
        return Err(trap(
            "msg_reply: the message was already answered or cannot be",
        ));
    }
    host.ctx.replied = true;
    Ok(())
}

/// `msg_reject`: the message is rejected with a text, once.
fn msg_reject(caller: &mut Caller<'_, Host>, params: &[Val], max_msg: u64) -> Result<(), Error> {
    let (src, size) = (arg(params, 0)?, arg(params, 1)?);
    let host = caller.data();
    if !host.kind.replies() || host.ctx.replied || host.ctx.rejected.is_some() {
        return Err(trap(
            "msg_reject: the message was already answered or cannot be",
        ));
    }
    let bytes = read_mem(caller, src, size, max_msg, "msg_reject")?;
    caller.data_mut().ctx.rejected = Some(String::from_utf8_lossy(&bytes).into_owned());
    Ok(())
}

/// `certified_data_set`: at most 32 bytes kept as the canister's certified data.
fn certified_data_set(caller: &mut Caller<'_, Host>, params: &[Val]) -> Result<(), Error> {
    let (src, size) = (arg(params, 0)?, arg(params, 1)?);
    if size > 32 {
        return Err(trap("certified_data_set: more than 32 bytes"));
    }
    let bytes = read_mem(caller, src, size, 32, "certified_data_set")?;
    caller.data_mut().certified_data = bytes;
    Ok(())
}

/// `is_controller`: whether the principal is the caller (the runner's one controller).
fn is_controller(
    caller: &mut Caller<'_, Host>,
    params: &[Val],
    results: &mut [Val],
) -> Result<(), Error> {
    let (src, size) = (arg(params, 0)?, arg(params, 1)?);
    if size > 29 {
        return Err(trap(
            "is_controller: not a principal (longer than 29 bytes)",
        ));
    }
    let bytes = read_mem(caller, src, size, 29, "is_controller")?;
    ret(
        results,
        u64::from(bytes == caller.data().cfg.caller.as_slice()),
    )
}

/// `debug_print`: the text goes to the run's log.
fn debug_print(caller: &mut Caller<'_, Host>, params: &[Val], max_msg: u64) -> Result<(), Error> {
    let (src, size) = (arg(params, 0)?, arg(params, 1)?);
    let bytes = read_mem(caller, src, size, max_msg, "debug_print")?;
    caller
        .data_mut()
        .log(String::from_utf8_lossy(&bytes).into_owned());
    Ok(())
}

/// `stable_size`: the 32-bit API's page count, a trap beyond 4 GiB.
fn stable_size(caller: &mut Caller<'_, Host>, results: &mut [Val]) -> Result<(), Error> {
    let pages = caller.data().stable.len() as u64 / PAGE;
    if pages > 65536 {
        return Err(trap("stable_size: stable memory is beyond 4 GiB"));
    }
    ret(results, pages)
}

/// `stable_grow` and `stable64_grow`: the old page count, or `failed` when the memory cannot
/// grow by the pages asked for within `max_bytes`.
fn grow_stable(
    caller: &mut Caller<'_, Host>,
    params: &[Val],
    results: &mut [Val],
    max_bytes: u64,
    failed: u64,
) -> Result<(), Error> {
    let pages = arg(params, 0)?;
    let old = stable_grow(caller.data_mut(), pages, max_bytes);
    ret(results, old.unwrap_or(failed))
}

/// `performance_counter`: the instructions executed so far in this message.
fn performance_counter(caller: &mut Caller<'_, Host>, results: &mut [Val]) -> Result<(), Error> {
    let limit = caller.data().cfg.instruction_limit;
    let left = caller.get_fuel().unwrap_or(limit);
    ret(results, limit.saturating_sub(left))
}

/// `trap`: stops the message with the canister's own message (at most `max_msg` bytes).
fn canister_trap(caller: &mut Caller<'_, Host>, params: &[Val], max_msg: u64) -> Result<(), Error> {
    let (src, size) = (arg(params, 0)?, arg(params, 1)?);
    let bytes = read_mem(caller, src, size.min(max_msg), max_msg, "trap")?;
    Err(Error::host(HostTrap::Canister(
        String::from_utf8_lossy(&bytes).into_owned(),
    )))
}

/// Executes one supported `ic0` call.
pub fn call(
    api: Api,
    caller: &mut Caller<'_, Host>,
    params: &[Val],
    results: &mut [Val],
) -> Result<(), Error> {
    let max_msg = caller.data().cfg.max_message_bytes;
    match api {
        Api::MsgArgDataSize => ret(results, caller.data().ctx.arg.len() as u64),
        Api::MsgArgDataCopy => copy_out(caller, params, "msg_arg_data_copy", |h| &h.ctx.arg),
        Api::MsgCallerSize => ret(results, caller.data().cfg.caller.as_slice().len() as u64),
        Api::MsgCallerCopy => copy_out(caller, params, "msg_caller_copy", |h| {
            h.cfg.caller.as_slice()
        }),
        Api::MsgRejectCode => ret(results, 0),
        Api::MsgRejectMsgSize => Err(trap("msg_reject_msg_size called outside a reject callback")),
        Api::MsgRejectMsgCopy => Err(trap("msg_reject_msg_copy called outside a reject callback")),
        Api::MsgDeadline => ret(results, 0),
        Api::MsgReplyDataAppend => msg_reply_data_append(caller, params, max_msg),
        Api::MsgReply => msg_reply(caller),
        Api::MsgReject => msg_reject(caller, params, max_msg),
        Api::MsgCyclesZero128 => write_u128(caller, arg(params, 0)?, 0, "msg_cycles"),
        Api::MsgCyclesAccept128 => write_u128(caller, arg(params, 2)?, 0, "msg_cycles_accept128"),
        Api::MsgCyclesZero64 | Api::MsgCyclesAccept64 => ret(results, 0),
        Api::CyclesBurn128 => write_u128(caller, arg(params, 2)?, 0, "cycles_burn128"),
        Api::CanisterSelfSize => ret(
            results,
            caller.data().cfg.canister_id.as_slice().len() as u64,
        ),
        Api::CanisterSelfCopy => copy_out(caller, params, "canister_self_copy", |h| {
            h.cfg.canister_id.as_slice()
        }),
        Api::CanisterCycleBalance64 => {
            let c = caller.data().cfg.cycles;
            ret(results, u64::try_from(c).unwrap_or(u64::MAX))
        }
        Api::CanisterCycleBalance128 => {
            let c = caller.data().cfg.cycles;
            write_u128(caller, arg(params, 0)?, c, "canister_cycle_balance128")
        }
        Api::CanisterStatus => ret(results, 1),
        Api::CanisterVersion => ret(results, caller.data().messages_executed),
        Api::MsgMethodNameSize => ret(results, caller.data().ctx.method.len() as u64),
        Api::MsgMethodNameCopy => copy_out(caller, params, "msg_method_name_copy", |h| {
            h.ctx.method.as_bytes()
        }),
        Api::AcceptMessage => Ok(()),
        Api::CallNew => {
            caller.data_mut().ctx.call_pending = true;
            Ok(())
        }
        Api::CallNoop => {
            if caller.data().ctx.call_pending {
                Ok(())
            } else {
                Err(trap("call_* without call_new"))
            }
        }
        Api::CallPerform => {
            caller.data_mut().ctx.call_pending = false;
            ret(results, CALL_PERFORM_FAILED as u32 as u64)
        }
        Api::StableSize => stable_size(caller, results),
        Api::StableGrow => grow_stable(caller, params, results, 4 << 30, u32::MAX as u64),
        Api::Stable64Size => ret(results, caller.data().stable.len() as u64 / PAGE),
        Api::Stable64Grow => grow_stable(caller, params, results, u64::MAX, u64::MAX),
        Api::StableWrite | Api::Stable64Write => {
            stable_write(caller, arg(params, 0)?, arg(params, 1)?, arg(params, 2)?)
        }
        Api::StableRead | Api::Stable64Read => {
            stable_read(caller, arg(params, 0)?, arg(params, 1)?, arg(params, 2)?)
        }
        Api::RootKeySize => ret(results, 0),
        Api::RootKeyCopy => copy_out(caller, params, "root_key_copy", |_| &[]),
        Api::CertifiedDataSet => certified_data_set(caller, params),
        Api::DataCertificatePresent => ret(results, 0),
        Api::DataCertificateSize | Api::DataCertificateCopy => {
            Err(trap("no data certificate is present"))
        }
        Api::Time => ret(results, caller.data().cfg.time_ns),
        Api::GlobalTimerSet => {
            let old = std::mem::replace(&mut caller.data_mut().global_timer, arg(params, 0)?);
            ret(results, old)
        }
        Api::PerformanceCounter => performance_counter(caller, results),
        Api::IsController => is_controller(caller, params, results),
        Api::InReplicatedExecution => {
            ret(results, u64::from(caller.data().kind != MessageKind::Query))
        }
        Api::DebugPrint => debug_print(caller, params, max_msg),
        Api::Trap => canister_trap(caller, params, max_msg),
        Api::CostZero => {
            let dst = arg(params, params.len().saturating_sub(1))?;
            write_u128(caller, dst, 0, "cost_*")
        }
        Api::CostZeroResult => {
            let dst = arg(params, 3)?;
            write_u128(caller, dst, 0, "cost_*")?;
            ret(results, 0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_by_memory_width() {
        let t32 = FuncType::new([ValType::I32, ValType::I32], []);
        let t64 = FuncType::new([ValType::I64, ValType::I64], []);
        assert!(matches!(
            resolve("ic0", "debug_print", &t32, false),
            Resolution::Known(Api::DebugPrint)
        ));
        assert!(matches!(
            resolve("ic0", "debug_print", &t64, true),
            Resolution::Known(Api::DebugPrint)
        ));
        assert!(matches!(
            resolve("ic0", "debug_print", &t64, false),
            Resolution::BadSignature { .. }
        ));
        match resolve("ic0", "no_such_thing", &t32, false) {
            Resolution::Unsupported(name) => assert_eq!(name, "ic0.no_such_thing"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            resolve("env", "debug_print", &t32, false),
            Resolution::Unsupported(_)
        ));
    }

    #[test]
    fn table_names_are_unique() {
        let mut names: Vec<_> = TABLE.iter().map(|(n, ..)| *n).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TABLE.len());
    }
}
