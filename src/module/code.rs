//! Small, bounded analyses of function bodies: constant loads, calls, global reads.

use std::collections::HashSet;

use wasmparser::{FunctionBody, Operator};

use super::raw::RawModule;

/// Most operators inspected per function (moc's accessors are tiny; compiled functions bounded).
const MAX_OPS: usize = 1 << 20;

/// Constant values of immutable globals, for constant folding.
pub(crate) struct ConstGlobals {
    pub(crate) imported: u32,
    pub(crate) values: Vec<Option<u64>>,
}

impl ConstGlobals {
    fn get(&self, g: u32) -> Option<u64> {
        let i = g.checked_sub(self.imported)?;
        self.values.get(i as usize).copied().flatten()
    }

    /// The init value of global `g`, mutable or not.
    pub(crate) fn any_value(&self, raw: &RawModule<'_>, g: u32) -> Option<u64> {
        let i = g.checked_sub(self.imported)?;
        raw.globals.get(i as usize).and_then(|&(_, v)| v)
    }
}

/// Iterates the operators of `body` (at most [`MAX_OPS`]), stopping at the first error.
pub(crate) fn ops<'a>(body: &FunctionBody<'a>) -> impl Iterator<Item = Operator<'a>> {
    let reader = body.get_operators_reader().ok();
    let mut reader = reader;
    std::iter::from_fn(move || {
        let r = reader.as_mut()?;
        if r.eof() {
            return None;
        }
        r.read().ok()
    })
    .take(MAX_OPS)
}

/// A tiny constant folder over the operand stack: constants, immutable globals and adds.
struct Folder<'g> {
    stack: Vec<Option<u64>>,
    globals: &'g ConstGlobals,
}

impl Folder<'_> {
    fn push(&mut self, v: Option<u64>) {
        if self.stack.len() >= 64 {
            self.stack.clear();
        }
        self.stack.push(v);
    }

    fn pop(&mut self) -> Option<u64> {
        self.stack.pop().flatten()
    }

    /// Applies one operator; returns the constant address of a load/store/add, if any.
    fn step(&mut self, op: &Operator<'_>) -> Step {
        match *op {
            Operator::I32Const { value } => self.push(Some(u64::from(value as u32))),
            Operator::I64Const { value } => self.push(Some(value as u64)),
            Operator::GlobalGet { global_index } => self.push(self.globals.get(global_index)),
            Operator::I32Add | Operator::I64Add => {
                let (b, a) = (self.pop(), self.pop());
                let sum = a.zip(b).map(|(a, b)| a.wrapping_add(b));
                self.push(sum);
                if let Some(s) = sum {
                    return Step::Sum(s);
                }
            }
            Operator::I32Load { memarg } | Operator::I64Load { memarg } => {
                let addr = self.pop();
                self.push(None);
                if let Some(a) = addr {
                    return Step::Load(a.wrapping_add(memarg.offset));
                }
            }
            _ => self.stack.clear(),
        }
        Step::None
    }
}

enum Step {
    None,
    Sum(u64),
    Load(u64),
}

/// The constant addresses loaded from in `body`, in order.
pub(crate) fn const_loads(body: &FunctionBody<'_>, globals: &ConstGlobals) -> Vec<u64> {
    let mut f = Folder {
        stack: Vec::new(),
        globals,
    };
    let mut out = Vec::new();
    for op in ops(body) {
        if let Step::Load(a) = f.step(&op) {
            out.push(a);
            if out.len() >= 16 {
                break;
            }
        }
    }
    out
}

/// The constant sums (`memory_base + offset`) computed in `body`, in order.
pub(crate) fn const_addresses(body: &FunctionBody<'_>, globals: &ConstGlobals) -> Vec<u64> {
    let mut f = Folder {
        stack: Vec::new(),
        globals,
    };
    let mut out = Vec::new();
    for op in ops(body) {
        match f.step(&op) {
            Step::Sum(a) | Step::Load(a) => out.push(a),
            Step::None => {}
        }
        if out.len() >= 16 {
            break;
        }
    }
    out
}

/// The functions `body` calls directly.
pub(crate) fn calls(body: &FunctionBody<'_>) -> Vec<u32> {
    ops(body)
        .filter_map(|op| match op {
            Operator::Call { function_index } => Some(function_index),
            _ => None,
        })
        .take(4096)
        .collect()
}

/// The global read by the first `global.get` in `body`.
pub(crate) fn first_global_get(body: &FunctionBody<'_>) -> Option<u32> {
    ops(body).find_map(|op| match op {
        Operator::GlobalGet { global_index } => Some(global_index),
        _ => None,
    })
}

/// The first `i32.const`/`i64.const` value in `body`.
pub(crate) fn first_const(body: &FunctionBody<'_>) -> Option<u64> {
    ops(body).find_map(|op| match op {
        Operator::I32Const { value } => Some(u64::from(value as u32)),
        Operator::I64Const { value } => Some(value as u64),
        _ => None,
    })
}

/// Whether `body` contains `i32.const 2; i32.or` (the rtti Int tag in `B_add`).
pub(crate) fn has_i32_const_or_2(body: &FunctionBody<'_>) -> bool {
    let mut prev_two = false;
    for op in ops(body) {
        if prev_two && matches!(op, Operator::I32Or) {
            return true;
        }
        prev_two = matches!(op, Operator::I32Const { value: 2 });
    }
    false
}

/// The functions called from compiled (non-RTS) code: functions whose names start with
/// `@`, `$` or contain `.` (source positions), plus `init`/`canister_*` exports.
pub(crate) fn called_from_compiled(raw: &RawModule<'_>) -> HashSet<u32> {
    let mut out = HashSet::new();
    for (&idx, name) in &raw.names {
        let compiled = name.starts_with('@')
            || name.starts_with('$')
            || name.starts_with("canister_")
            || name.starts_with("init");
        if !compiled {
            continue;
        }
        if let Some(body) = raw.body(idx) {
            out.extend(calls(body));
        }
    }
    out
}

impl RawModule<'_> {
    /// Constant values of the immutable globals (index space including imports).
    pub(crate) fn const_globals(&self) -> ConstGlobals {
        ConstGlobals {
            imported: self.imported_globals,
            values: self
                .globals
                .iter()
                .map(|&(m, v)| if m { None } else { v })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::raw::read_raw;
    use super::*;

    /// A module with the shapes moc's accessors have: a constant address from an immutable
    /// global plus an offset, a load from a mutable global (not constant), `i32.const 2;
    /// i32.or`, calls from compiled (`@`, `canister_`) code to the RTS and to an import.
    const WAT: &str = r#"
        (module
          (import "env" "imported" (func $imported))
          (global $base i32 (i32.const 0x1000))
          (global $hp (mut i32) (i32.const 0x2000))
          (memory 1)
          (func $rts_helper)
          (func $load_fixed (result i32)
            global.get $base i32.const 8 i32.add i32.load offset=4
            drop
            global.get $hp i32.const 8 i32.add i32.load)
          (func $B_add (result i32) i32.const 5 i32.const 2 i32.or)
          (func $read_hp (result i32) i32.const 7 drop global.get $hp)
          (func $@compiled call $rts_helper call $imported)
          (func $canister_update_x (result i32) call $load_fixed))
    "#;

    #[test]
    fn analyses_fold_constant_addresses_and_find_calls_globals_and_tags() {
        let wasm = wat::parse_str(WAT).expect("valid WAT");
        let raw = read_raw(&wasm).expect("parsed");
        let globals = raw.const_globals();
        let body = |name: &str| {
            raw.body_named(name)
                .unwrap_or_else(|| panic!("function {name}"))
        };
        let index = |name: &str| {
            raw.func_named(name)
                .unwrap_or_else(|| panic!("function {name}"))
        };

        // 0x1000 + 8, loaded at offset 4; the load through the mutable $hp is not constant.
        assert_eq!(const_loads(body("load_fixed"), &globals), [0x100c]);
        assert_eq!(
            const_addresses(body("load_fixed"), &globals),
            [0x1008, 0x100c]
        );
        // Immutable globals fold, mutable ones do not, but their init value is known.
        assert_eq!(globals.get(0), Some(0x1000));
        assert_eq!(globals.get(1), None);
        assert_eq!(globals.any_value(&raw, 1), Some(0x2000));

        assert_eq!(
            calls(body("@compiled")),
            [index("rts_helper"), index("imported")]
        );
        assert_eq!(first_global_get(body("read_hp")), Some(1));
        assert_eq!(first_const(body("read_hp")), Some(7));
        assert_eq!(first_const(body("rts_helper")), None);
        assert!(has_i32_const_or_2(body("B_add")));
        assert!(!has_i32_const_or_2(body("load_fixed")));
        assert_eq!(ops(body("B_add")).count(), 4, "const, const, or, end");

        let called = called_from_compiled(&raw);
        let want: HashSet<u32> = ["rts_helper", "imported", "load_fixed"]
            .into_iter()
            .map(index)
            .collect();
        assert_eq!(called, want);
    }
}
