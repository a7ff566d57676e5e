//! The loop path: conditions, `x op= e` and statements whose value is not used, with small
//! `Nat`/`Int` operands read in place (no `Value` built, copied or dropped per step).
//!
//! Every fast path here is side-effect free until it commits, and falls back to the
//! general evaluator (which has the exact semantics: big numbers, the `Nat` underflow trap,
//! fixed-width types, texts, errors) whenever an operand is anything else.

use super::cond::{compare_ord, compare_value, truthy};
use super::{EResult, Interp};
use crate::script::compile::ir::{Code, Hint, Place, Slot, Stmt};
use crate::script::syntax::ast::BinOp;
use crate::script::syntax::Span;
use crate::script::value::{discard, NumKind, Value};
use std::rc::Rc;

/// A small number read without building a value.
#[derive(Clone, Copy)]
enum Small {
    Nat(u64),
    Int(i64),
}

#[inline(always)]
fn small_of(v: &Value) -> Option<Small> {
    match v {
        Value::Nat(n) => Some(Small::Nat(*n)),
        Value::Int(n) => Some(Small::Int(*n)),
        _ => None,
    }
}

/// `x op y` on two small numbers of the same kind when it stays small; `None` otherwise
/// (overflow into big numbers, `Nat` underflow, other operators: the general path decides).
#[inline(always)]
fn small_arith(op: BinOp, a: Small, b: Small) -> Option<Small> {
    match (a, b) {
        (Small::Nat(x), Small::Nat(y)) => match op {
            BinOp::Add => x.checked_add(y),
            BinOp::Sub => x.checked_sub(y),
            BinOp::Mul => x.checked_mul(y),
            _ => None,
        }
        .map(Small::Nat),
        (Small::Int(x), Small::Int(y)) => match op {
            BinOp::Add => x.checked_add(y),
            BinOp::Sub => x.checked_sub(y),
            BinOp::Mul => x.checked_mul(y),
            _ => None,
        }
        .map(Small::Int),
        _ => None,
    }
}

/// Whether `code` is a field read `v.a.b` of a variable: it runs no script code and changes
/// no variable (a host value's field is read from the heap).
fn field_read(code: &Code) -> bool {
    let mut c = code;
    let mut dots = 0;
    loop {
        match c {
            Code::Dot(inner, _, _) => {
                dots += 1;
                c = inner;
            }
            Code::Var(_) => return dots > 0,
            _ => return false,
        }
    }
}

/// Whether the arithmetic hint of an operation lets a small result of this kind stand
/// (`None` = untyped, or the kind itself).
#[inline(always)]
fn hint_allows(hint: Option<NumKind>, r: Small) -> bool {
    matches!(
        (hint, r),
        (None, _) | (Some(NumKind::Nat), Small::Nat(_)) | (Some(NumKind::Int), Small::Int(_))
    )
}

impl Interp {
    /// The small number a variable holds, read in place.
    #[inline(always)]
    fn small_var(&self, slot: Slot) -> Option<Small> {
        match slot {
            Slot::Local(i) => small_of(self.stack.get(self.bp + i as usize)?),
            Slot::Global(i) => small_of(self.globals.get(i as usize)?),
            Slot::LocalCell(i) => match self.stack.get(self.bp + i as usize)? {
                Value::Cell(c) => small_of(&*c.try_borrow().ok()?),
                v => small_of(v),
            },
            Slot::Env(i) => match self.env.as_ref()?.env.get(i as usize)? {
                Value::Cell(c) => small_of(&*c.try_borrow().ok()?),
                v => small_of(v),
            },
        }
    }

    /// A constant or variable holding a small number.
    #[inline(always)]
    fn small_leaf(&self, code: &Code) -> Option<Small> {
        match code {
            Code::Const(v) => small_of(v),
            Code::Var(s) => self.small_var(*s),
            _ => None,
        }
    }

    /// A small number computed without side effects: a leaf, or `a op b` of two leaves.
    #[inline(always)]
    fn small(&self, code: &Code) -> Option<Small> {
        match code {
            Code::Binary(op, ab, hint, _) => {
                let r = small_arith(*op, self.small_leaf(&ab.0)?, self.small_leaf(&ab.1)?)?;
                hint_allows(*hint, r).then_some(r)
            }
            _ => self.small_leaf(code),
        }
    }

    /// Evaluates a condition (of `if`, `while`, `loop ... while`): a comparison is decided
    /// without building a `Bool` value.
    #[inline]
    pub(super) fn cond(&mut self, code: &Code) -> EResult<bool> {
        match code {
            Code::Compare(op, ab, span) => self.compare(*op, ab, *span),
            _ => {
                let c = self.eval(code)?;
                truthy(&c, None)
            }
        }
    }

    /// A comparison; two small `Nat`s or two small `Int`s are compared in place.
    #[inline(never)]
    pub(super) fn compare(
        &mut self,
        op: BinOp,
        ab: &(Code, Code, Option<Rc<Hint>>),
        span: Span,
    ) -> EResult<bool> {
        // a known structural type (or `Any`) decides `==` (see `equality`)
        let small = match ab.2 {
            None => (self.small(&ab.0), self.small(&ab.1)),
            Some(_) => (None, None),
        };
        match small {
            (Some(Small::Nat(x)), Some(Small::Nat(y))) => return Ok(compare_ord(op, x.cmp(&y))),
            (Some(Small::Int(x)), Some(Small::Int(y))) => return Ok(compare_ord(op, x.cmp(&y))),
            _ => {}
        }
        let a = self.eval(&ab.0)?;
        let b = self.eval(&ab.1)?;
        let r = compare_value(op, &a, &b, ab.2.as_ref(), span);
        // what `==` decoded of values read lazily from the heap
        for v in [&a, &b] {
            if let Value::Host(h) = v {
                self.charge_host(&**h)?;
            }
        }
        discard(a);
        discard(b);
        r
    }

    /// Stores a small number into a variable that holds one of the same kind; false
    /// (nothing changed) otherwise.
    #[inline(always)]
    fn store_small(&mut self, slot: Slot, op: BinOp, rhs: Small) -> bool {
        // writes the number's payload, so no drop glue runs for the old value
        let update = |v: &mut Value| -> bool {
            match v {
                Value::Nat(x) => match small_arith(op, Small::Nat(*x), rhs) {
                    Some(Small::Nat(r)) => *x = r,
                    _ => return false,
                },
                Value::Int(x) => match small_arith(op, Small::Int(*x), rhs) {
                    Some(Small::Int(r)) => *x = r,
                    _ => return false,
                },
                _ => return false,
            }
            true
        };
        match slot {
            Slot::Local(i) => self.stack.get_mut(self.bp + i as usize).is_some_and(update),
            Slot::Global(i) => self.globals.get_mut(i as usize).is_some_and(update),
            Slot::LocalCell(i) => match self.stack.get(self.bp + i as usize) {
                Some(Value::Cell(c)) => c.try_borrow_mut().is_ok_and(|mut v| update(&mut v)),
                _ => false,
            },
            Slot::Env(i) => match self.env.as_ref().and_then(|e| e.env.get(i as usize)) {
                Some(Value::Cell(c)) => c.try_borrow_mut().is_ok_and(|mut v| update(&mut v)),
                _ => false,
            },
        }
    }

    /// `x op= e` on a variable: small `Nat`/`Int` arithmetic updates the variable in
    /// place; everything else (overflow into big numbers, the `Nat` underflow trap,
    /// texts, fixed-width types) takes the general path.
    #[inline(never)]
    pub(super) fn op_assign_var(
        &mut self,
        op: BinOp,
        slot: Slot,
        value: &Code,
        hint: Option<NumKind>,
        span: Span,
    ) -> EResult<()> {
        if let Some(rhs) = self.small(value) {
            if hint_allows(hint, rhs) && self.store_small(slot, op, rhs) {
                return Ok(());
            }
        }
        if field_read(value) {
            // `sum += r.id`: reading a field changes no variable, so the right side may run
            // before the current value is read (moc's order) with the same result.
            let rhs = self.eval(value)?;
            if let Some(small) = small_of(&rhs) {
                if hint_allows(hint, small) && self.store_small(slot, op, small) {
                    return Ok(());
                }
            }
            return self
                .op_assign_evaluated(op, slot, rhs, hint, span)
                .map(discard);
        }
        self.op_assign(op, &Place::Var(slot), value, hint, span)
            .map(discard)
    }

    /// Runs code whose value is not used (loop bodies, statements before a block's last).
    #[inline]
    pub(super) fn exec(&mut self, code: &Code) -> EResult<()> {
        match code {
            Code::OpAssign(op, place, value, hint, span) => match &**place {
                Place::Var(slot) => self.op_assign_var(*op, *slot, value, *hint, *span),
                _ => self.eval(code).map(discard),
            },
            Code::Block(stmts) => self.exec_block(stmts),
            _ => self.eval(code).map(discard),
        }
    }

    /// A block whose value is not used.
    #[inline(never)]
    fn exec_block(&mut self, stmts: &[Stmt]) -> EResult<()> {
        if stmts.iter().all(|s| matches!(s, Stmt::Expr(_))) {
            for s in stmts {
                if let Stmt::Expr(c) = s {
                    self.exec(c)?;
                }
            }
            return Ok(());
        }
        self.block(stmts).map(discard)
    }
}
