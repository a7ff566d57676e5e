//! The NaN canonicalization checked against a plain model: run a float instruction on wasmi
//! before and after the rewrite and compare with Rust's own arithmetic, where a NaN result is
//! the canonical NaN and every other result keeps its bits.

use super::nan_canon::{canonicalize_nans, CANONICAL_F32, CANONICAL_F64};
use super::RuntimeError;
use wasmi::{Engine, Instance, Linker, Module, Store, WasmParams, WasmResults};

/// Every float instruction the IC canonicalizes and a few it does not, as functions over bits:
/// the f64 ones generated, the others written out below.
fn module() -> String {
    let binary = ["add", "sub", "mul", "div", "min", "max", "copysign"].map(|op| {
        format!(
            "(func (export \"f64.{op}\") (param i64 i64) (result i64)\n  \
             local.get 0 local.get 1 call $f64_binary f64.{op} i64.reinterpret_f64)\n"
        )
    });
    let unary = ["sqrt", "floor", "neg", "abs"].map(|op| {
        format!(
            "(func (export \"f64.{op}\") (param i64) (result i64)\n  \
             local.get 0 f64.reinterpret_i64 f64.{op} i64.reinterpret_f64)\n"
        )
    });
    format!(
        "(module (memory 1)\n\
         (func $f64_binary (param i64 i64) (result f64 f64)\n  \
         local.get 0 f64.reinterpret_i64 local.get 1 f64.reinterpret_i64)\n{}{}{MORE})",
        binary.concat(),
        unary.concat()
    )
}

/// The module's other functions.
const MORE: &str = r#"
  (func (export "f64.load") (param i64) (result i64)
    i32.const 8 local.get 0 i64.store
    i32.const 8 f64.load i64.reinterpret_f64)
  (func (export "f32.div") (param i32 i32) (result i32)
    local.get 0 f32.reinterpret_i32 local.get 1 f32.reinterpret_i32 f32.div i32.reinterpret_f32)
  (func (export "f32.add") (param i32 i32) (result i32)
    local.get 0 f32.reinterpret_i32 local.get 1 f32.reinterpret_i32 f32.add i32.reinterpret_f32)
  (func (export "f32.demote_f64") (param i64) (result i32)
    local.get 0 f64.reinterpret_i64 f32.demote_f64 i32.reinterpret_f32)
  (func (export "f64.promote_f32") (param i32) (result i64)
    local.get 0 f32.reinterpret_i32 f64.promote_f32 i64.reinterpret_f64)
  ;; Locals declared before the new ones, both widths in one function, nested blocks, a loop,
  ;; and unreachable code: the sum of x / 0 over n steps, then converted to f32 and back.
  (func (export "mixed") (param $x i64) (param $n i32) (result i64)
    (local $acc f64) (local $i i32) (local $g f32)
    block $done
      loop $next
        local.get $i local.get $n i32.ge_u br_if $done
        local.get $acc
        local.get $x f64.reinterpret_i64 f64.const 0 f64.div
        f64.add local.set $acc
        local.get $i i32.const 1 i32.add local.set $i
        br $next
      end
    end
    local.get $acc f32.demote_f64 local.set $g
    local.get $g f32.const 1 f32.mul f64.promote_f32
    i64.reinterpret_f64
    return
    unreachable
    f64.add
    drop)
"#;

/// A module with no float arithmetic at all.
const NO_FLOATS: &str = r#"
(module
  (memory 1)
  (func (export "id") (param i64) (result i64) local.get 0)
  (func (export "neg") (param f64) (result f64) local.get 0 f64.neg))
"#;

struct Runner {
    store: Store<()>,
    instance: Instance,
}

impl Runner {
    fn new(wasm: &[u8]) -> Self {
        let engine = Engine::default();
        let module = Module::new(&engine, wasm).unwrap();
        let mut store = Store::new(&engine, ());
        let instance = Linker::<()>::new(&engine)
            .instantiate_and_start(&mut store, &module)
            .unwrap();
        Runner { store, instance }
    }

    /// Calls the exported function `name` with `args`.
    fn call<P: WasmParams, R: WasmResults>(&mut self, name: &str, args: P) -> R {
        let f = self
            .instance
            .get_typed_func::<P, R>(&self.store, name)
            .unwrap();
        f.call(&mut self.store, args).unwrap()
    }

    fn binary64(&mut self, name: &str, a: u64, b: u64) -> u64 {
        self.call::<_, i64>(name, (a as i64, b as i64)) as u64
    }

    fn unary64(&mut self, name: &str, a: u64) -> u64 {
        self.call::<_, i64>(name, a as i64) as u64
    }

    fn binary32(&mut self, name: &str, a: u32, b: u32) -> u32 {
        self.call::<_, i32>(name, (a as i32, b as i32)) as u32
    }
}

fn both(wat_text: &str) -> (Runner, Runner) {
    let original = wat::parse_str(wat_text).unwrap();
    let rewritten = canonicalize_nans(&original).unwrap();
    (Runner::new(&original), Runner::new(&rewritten))
}

/// The IC's result for an arithmetic result `r`: the canonical NaN for any NaN, else `r`.
fn ic64(r: f64) -> u64 {
    if r.is_nan() {
        CANONICAL_F64
    } else {
        r.to_bits()
    }
}

fn ic32(r: f32) -> u32 {
    if r.is_nan() {
        CANONICAL_F32
    } else {
        r.to_bits()
    }
}

/// Operands: zeros of both signs, infinities, a subnormal, ordinary values, NaNs of both
/// signs with and without payloads.
const F64S: [u64; 12] = [
    0,
    0x8000_0000_0000_0000,
    0x7ff0_0000_0000_0000,
    0xfff0_0000_0000_0000,
    1,
    0x3ff0_0000_0000_0000,
    0xc004_0000_0000_0000,
    0x7fef_ffff_ffff_ffff,
    0x7ff8_0000_0000_0000,
    0xfff8_0000_0000_0000,
    0x7ff4_0000_0000_abcd,
    0xfffc_0000_0000_1234,
];

#[test]
fn f64_arithmetic_gives_the_canonical_nan_and_keeps_every_other_result() {
    let (mut _plain, mut ic) = both(&module());
    type Op = fn(f64, f64) -> f64;
    let ops: [(&str, Op); 6] = [
        ("f64.add", |a, b| a + b),
        ("f64.sub", |a, b| a - b),
        ("f64.mul", |a, b| a * b),
        ("f64.div", |a, b| a / b),
        ("f64.min", |a, b| {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else if a == b {
                f64::from_bits(a.to_bits() | b.to_bits())
            } else {
                a.min(b)
            }
        }),
        ("f64.max", |a, b| {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else if a == b {
                f64::from_bits(a.to_bits() & b.to_bits())
            } else {
                a.max(b)
            }
        }),
    ];
    for (name, op) in ops {
        for a in F64S {
            for b in F64S {
                let want = ic64(op(f64::from_bits(a), f64::from_bits(b)));
                assert_eq!(ic.binary64(name, a, b), want, "{name} {a:#x} {b:#x}");
            }
        }
    }
    for a in F64S {
        let x = f64::from_bits(a);
        assert_eq!(ic.unary64("f64.sqrt", a), ic64(x.sqrt()), "sqrt {a:#x}");
        assert_eq!(ic.unary64("f64.floor", a), ic64(x.floor()), "floor {a:#x}");
    }
}

#[test]
fn sign_operations_loads_and_reinterpretations_keep_a_nans_bits() {
    let (mut plain, mut ic) = both(&module());
    for a in F64S {
        assert_eq!(ic.unary64("f64.neg", a), a ^ (1 << 63), "neg {a:#x}");
        assert_eq!(ic.unary64("f64.abs", a), a & !(1 << 63), "abs {a:#x}");
        assert_eq!(ic.unary64("f64.load", a), a, "load {a:#x}");
        for b in F64S {
            let want = (a & !(1 << 63)) | (b & (1 << 63));
            assert_eq!(ic.binary64("f64.copysign", a, b), want);
            assert_eq!(plain.binary64("f64.copysign", a, b), want);
        }
    }
}

#[test]
fn f32_arithmetic_and_the_conversions_between_widths_are_canonicalized() {
    let (_, mut ic) = both(&module());
    let f32s = [
        0u32,
        0x8000_0000,
        0x7f80_0000,
        0xff80_0000,
        1,
        0x3f80_0000,
        0x7fc0_0000,
        0xffc0_0000,
        0x7fa0_00ff,
        0xffe0_0001,
    ];
    for a in f32s {
        for b in f32s {
            let (x, y) = (f32::from_bits(a), f32::from_bits(b));
            assert_eq!(
                ic.binary32("f32.div", a, b),
                ic32(x / y),
                "div {a:#x} {b:#x}"
            );
            assert_eq!(
                ic.binary32("f32.add", a, b),
                ic32(x + y),
                "add {a:#x} {b:#x}"
            );
        }
        let got = ic.call::<_, i64>("f64.promote_f32", a as i32) as u64;
        assert_eq!(got, ic64(f64::from(f32::from_bits(a))), "promote {a:#x}");
    }
    for a in F64S {
        let got = ic.call::<_, i32>("f32.demote_f64", a as i64) as u32;
        assert_eq!(got, ic32(f64::from_bits(a) as f32), "demote {a:#x}");
    }
}

#[test]
fn the_host_cpus_nans_are_what_the_rewrite_replaces() {
    // Without the rewrite, wasmi hands on the CPU's NaNs: on x86-64 the negative default NaN
    // for 0/0 and an operand's payload through an addition.
    let (mut plain, mut ic) = both(&module());
    let plain_div = plain.binary64("f64.div", 0, 0);
    let plain_add = plain.binary64("f64.add", 0x7ff4_0000_0000_abcd, 0x3ff0_0000_0000_0000);
    if cfg!(target_arch = "x86_64") {
        assert_eq!(plain_div, 0xfff8_0000_0000_0000);
        assert_eq!(plain_add, 0x7ffc_0000_0000_abcd);
    }
    assert_eq!(ic.binary64("f64.div", 0, 0), CANONICAL_F64);
    assert_eq!(
        ic.binary64("f64.add", 0x7ff4_0000_0000_abcd, 0x3ff0_0000_0000_0000),
        CANONICAL_F64
    );
}

#[test]
fn functions_with_locals_blocks_and_unreachable_code_keep_their_meaning() {
    let (mut plain, mut ic) = both(&module());
    let call = |r: &mut Runner, x: u64, n: i32| r.call::<_, i64>("mixed", (x as i64, n)) as u64;
    // 1 / 0 summed: +inf, no NaN: the same bits either way.
    assert_eq!(
        call(&mut plain, 0x3ff0_0000_0000_0000, 3),
        0x7ff0_0000_0000_0000
    );
    assert_eq!(
        call(&mut ic, 0x3ff0_0000_0000_0000, 3),
        0x7ff0_0000_0000_0000
    );
    // 0 / 0 summed, demoted, multiplied, promoted: canonical at every step.
    assert_eq!(call(&mut ic, 0, 3), CANONICAL_F64);
    // No steps: 0.
    assert_eq!(call(&mut ic, 0, 0), 0);
}

#[test]
fn a_module_without_float_arithmetic_is_returned_unchanged() {
    let original = wat::parse_str(NO_FLOATS).unwrap();
    assert_eq!(canonicalize_nans(&original).unwrap(), original);
}

#[test]
fn a_function_at_the_locals_limit_is_refused_by_name() {
    // (func (param f64) (result f64) (local 49999 x i32) local.get 0 local.get 0 f64.add)
    let wasm = [
        0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, // header
        1, 6, 1, 0x60, 1, 0x7c, 1, 0x7c, // type 0: (f64) -> f64
        3, 2, 1, 0, // function 0: type 0
        10, 13, 1, 11, 1, 0xcf, 0x86, 0x03, 0x7f, // code: one group of 49 999 i32
        0x20, 0, 0x20, 0, 0xa0, 0x0b, // local.get 0, local.get 0, f64.add, end
    ];
    Module::new(&Engine::default(), &wasm[..]).unwrap();
    match canonicalize_nans(&wasm) {
        Err(RuntimeError::InvalidModule(m)) => {
            assert!(m.contains("function 0 has 50000 locals"), "{m}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn truncated_modules_are_refused_not_panicked_on() {
    let wasm = wat::parse_str(module()).unwrap();
    for cut in (8..wasm.len()).step_by(7) {
        // Any result but a panic will do; most cuts are errors.
        let _ = canonicalize_nans(&wasm[..cut]);
    }
    assert!(canonicalize_nans(&wasm[..wasm.len() - 1]).is_err());
}
