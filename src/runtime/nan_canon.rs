//! The IC's NaNs in the runner: the IC compiles canisters with Wasmtime's NaN canonicalization
//! (`cranelift_nan_canonicalization`), so every NaN a floating-point arithmetic instruction makes
//! is the positive canonical one (`0x7ff8_0000_0000_0000`, `0x7fc0_0000`), where the host CPU
//! (and wasmi, which computes with it) would give x86's negative default NaN for `0.0 / 0.0` and
//! pass an operand's payload through `x + 1.0`. This rewrite puts the same check after the same
//! instructions Cranelift's pass patches: `add`, `sub`, `mul`, `div`, `min`, `max`, `sqrt`,
//! `ceil`, `floor`, `trunc`, `nearest`, `f32.demote_f64` and `f64.promote_f32`. The sign
//! operations (`neg`, `abs`, `copysign`), loads, constants and `reinterpret` keep their bits,
//! as on the IC.
//!
//! After such an instruction the result `x` is on the stack; the rewrite appends
//! `local.tee $t; const NaN; local.get $t; local.get $t; eq; select`, which leaves `x` if
//! `x == x` and the canonical NaN otherwise. `$t` is one new local per float width a function
//! needs. The appended instructions run on wasmi's fuel like any other (the IC does not count
//! its canonicalization), so float-heavy code reports a few more instructions than before.

use wasmparser::{FunctionBody, Operator, Parser, Payload};

use super::error::RuntimeError;
use super::wasm_sections::{parse_err, replace_section, sections, write_leb_u32, SECTION_CODE};

/// The canonical `f64` NaN: positive, quiet, no payload (Cranelift's `Ieee64::NAN`).
pub const CANONICAL_F64: u64 = 0x7ff8_0000_0000_0000;

/// The canonical `f32` NaN (Cranelift's `Ieee32::NAN`).
pub const CANONICAL_F32: u32 = 0x7fc0_0000;

/// Most locals a function may have (wasmparser's and wasmi's validation limit).
const MAX_FUNCTION_LOCALS: u64 = 50_000;

/// The two float widths whose NaNs are canonicalized.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Width {
    F32,
    F64,
}

/// The width of the result `op` makes if it is an arithmetic instruction the IC canonicalizes.
fn canonicalized_width(op: &Operator) -> Option<Width> {
    use Operator as O;
    match op {
        O::F32Add
        | O::F32Sub
        | O::F32Mul
        | O::F32Div
        | O::F32Min
        | O::F32Max
        | O::F32Sqrt
        | O::F32Ceil
        | O::F32Floor
        | O::F32Trunc
        | O::F32Nearest
        | O::F32DemoteF64 => Some(Width::F32),
        O::F64Add
        | O::F64Sub
        | O::F64Mul
        | O::F64Div
        | O::F64Min
        | O::F64Max
        | O::F64Sqrt
        | O::F64Ceil
        | O::F64Floor
        | O::F64Trunc
        | O::F64Nearest
        | O::F64PromoteF32 => Some(Width::F64),
        _ => None,
    }
}

/// `wasm` with every float arithmetic result canonicalized as the IC does (the module itself
/// when it has no such instruction).
pub fn canonicalize_nans(wasm: &[u8]) -> Result<Vec<u8>, RuntimeError> {
    let mut type_params: Vec<u32> = Vec::new();
    let mut imported_functions = 0u32;
    let mut function_types: Vec<u32> = Vec::new();
    let mut bodies: Vec<FunctionBody> = Vec::new();
    for payload in Parser::new(0).parse_all(wasm) {
        match payload.map_err(parse_err)? {
            Payload::TypeSection(reader) => {
                for ty in reader.into_iter_err_on_gc_types() {
                    let params = ty.map_err(parse_err)?.params().len();
                    type_params.push(u32::try_from(params).map_err(|_| too_many("parameters"))?);
                }
            }
            Payload::ImportSection(reader) => {
                for import in reader {
                    if let wasmparser::TypeRef::Func(_) = import.map_err(parse_err)?.ty {
                        imported_functions = imported_functions
                            .checked_add(1)
                            .ok_or_else(|| too_many("imports"))?;
                    }
                }
            }
            Payload::FunctionSection(reader) => {
                for ty in reader {
                    function_types.push(ty.map_err(parse_err)?);
                }
            }
            Payload::CodeSectionEntry(body) => bodies.push(body),
            _ => {}
        }
    }
    if bodies.len() != function_types.len() {
        return Err(RuntimeError::InvalidModule(format!(
            "{} function bodies for {} declared functions",
            bodies.len(),
            function_types.len()
        )));
    }
    let mut code = Vec::with_capacity(wasm.len() / 2);
    write_leb_u32(
        &mut code,
        u32::try_from(bodies.len()).map_err(|_| too_many("functions"))?,
    );
    let mut changed = false;
    for (i, (body, ty)) in bodies.iter().zip(&function_types).enumerate() {
        let params = *type_params
            .get(*ty as usize)
            .ok_or_else(|| RuntimeError::InvalidModule(format!("function {i} has no type {ty}")))?;
        let index = imported_functions as usize + i;
        let new = rewrite_body(wasm, body, params, index)?;
        let bytes = new.as_deref().unwrap_or(&wasm[body.range()]);
        changed |= new.is_some();
        write_leb_u32(
            &mut code,
            u32::try_from(bytes.len()).map_err(|_| too_many("code bytes"))?,
        );
        code.extend_from_slice(bytes);
    }
    if !changed {
        return Ok(wasm.to_vec());
    }
    replace_section(wasm, &sections(wasm)?, SECTION_CODE, &code)
}

fn too_many(what: &str) -> RuntimeError {
    RuntimeError::InvalidModule(format!("too many {what}"))
}

/// The body of function `index` (with `params` parameters) with the canonicalization appended
/// after each float arithmetic instruction, or `None` if it has none.
fn rewrite_body(
    wasm: &[u8],
    body: &FunctionBody,
    params: u32,
    index: usize,
) -> Result<Option<Vec<u8>>, RuntimeError> {
    let mut locals = body.get_locals_reader().map_err(parse_err)?;
    let groups = locals.get_count();
    let groups_start = locals.original_position();
    let mut declared = u64::from(params);
    for _ in 0..groups {
        declared += u64::from(locals.read().map_err(parse_err)?.0);
    }
    let ops_start = locals.original_position();
    let mut ops = body.get_operators_reader().map_err(parse_err)?;
    let mut sites: Vec<(usize, Width)> = Vec::new();
    while !ops.eof() {
        let op = ops.read().map_err(parse_err)?;
        if let Some(width) = canonicalized_width(&op) {
            sites.push((ops.original_position(), width));
        }
    }
    if sites.is_empty() {
        return Ok(None);
    }
    let needs = |w: Width| sites.iter().any(|&(_, x)| x == w);
    let (f64_local, f32_local) = (needs(Width::F64), needs(Width::F32));
    let added = u32::from(f64_local) + u32::from(f32_local);
    if declared + u64::from(added) > MAX_FUNCTION_LOCALS {
        return Err(RuntimeError::InvalidModule(format!(
            "function {index} has {declared} locals: no room for the {added} the NaN canonicalization adds (at most {MAX_FUNCTION_LOCALS})"
        )));
    }
    // Within the limit above, so the indices fit a u32.
    let f64_index = declared as u32;
    let f32_index = f64_index + u32::from(f64_local);
    let end = body.range().end;
    let mut out = Vec::with_capacity(end - body.range().start + sites.len() * 16);
    write_leb_u32(&mut out, groups + added);
    out.extend_from_slice(&wasm[groups_start..ops_start]);
    for (wanted, valtype) in [(f64_local, 0x7c), (f32_local, 0x7d)] {
        if wanted {
            out.extend_from_slice(&[1, valtype]);
        }
    }
    let mut copied = ops_start;
    for (at, width) in sites {
        out.extend_from_slice(&wasm[copied..at]);
        match width {
            Width::F64 => canonicalizer(
                &mut out,
                f64_index,
                &CANONICAL_F64.to_le_bytes(),
                0x44,
                0x61,
            ),
            Width::F32 => canonicalizer(
                &mut out,
                f32_index,
                &CANONICAL_F32.to_le_bytes(),
                0x43,
                0x5b,
            ),
        }
        copied = at;
    }
    out.extend_from_slice(&wasm[copied..end]);
    Ok(Some(out))
}

/// Appends `local.tee $t; CONST nan; local.get $t; local.get $t; EQ; select`.
fn canonicalizer(out: &mut Vec<u8>, local: u32, nan: &[u8], constant: u8, eq: u8) {
    out.push(0x22);
    write_leb_u32(out, local);
    out.push(constant);
    out.extend_from_slice(nan);
    for _ in 0..2 {
        out.push(0x20);
        write_leb_u32(out, local);
    }
    out.push(eq);
    out.push(0x1b);
}
