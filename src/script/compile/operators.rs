//! Literals (typed by their expected type), operators and assignments.

use super::ir::{Code, Hint};
use super::{err, lit_value, text_to_blob, CResult, Compiler};
use crate::script::syntax::ast::{BinOp, Expr, ExprKind, Lit, UnOp};
use crate::script::value::{num, NumKind, Value};

impl Compiler<'_> {
    /// A literal, of the type the checker found or the expected type.
    pub(super) fn literal(&mut self, e: &Expr, l: &Lit, hint: Option<&Hint>) -> CResult<Code> {
        let span = e.span;
        let v = lit_value(l, span)?;
        let hint = if self.literal_is_blob(e) {
            Some(&Hint::Blob)
        } else {
            hint
        };
        if let (Some(Hint::Blob), Value::Text(t)) = (hint, &v) {
            return Ok(Code::Const(Value::Blob(text_to_blob(t))));
        }
        Ok(
            match (self.literal_kind(e).or(hint.and_then(Hint::num)), &v) {
                (Some(k), Value::Nat(_) | Value::BigNat(_)) => Code::Const(
                    num::convert(v, k)
                        .map_err(|_| err(span, format!("literal out of range for type {k:?}")))?,
                ),
                _ => Code::Const(v),
            },
        )
    }

    /// `-a`, `+a`, `^a`: `-5` and `+5` are `Int` literals, as in moc (or of the expected
    /// type).
    pub(super) fn unary(
        &mut self,
        e: &Expr,
        op: UnOp,
        a: &Expr,
        hint: Option<&Hint>,
    ) -> CResult<Code> {
        let span = e.span;
        let k = hint.and_then(Hint::num);
        if let (UnOp::Neg | UnOp::Pos, ExprKind::Lit(Lit::Nat(_))) = (op, &a.kind) {
            let v = self.expr(a, None)?;
            if let Code::Const(v) = v {
                let k = self.literal_kind(e).or(k);
                let k = Some(k.filter(|k| *k != NumKind::Nat).unwrap_or(NumKind::Int));
                let r = num::unary(op, &v, k)
                    .map_err(|_| err(span, "literal out of range for its type"))?;
                return Ok(Code::Const(r));
            }
        }
        Ok(Code::Unary(op, Box::new(self.expr(a, hint)?), k, span))
    }

    /// `a op b`: a comparison at the checked type, or arithmetic.
    pub(super) fn binary(
        &mut self,
        e: &Expr,
        op: BinOp,
        a: &Expr,
        b: &Expr,
        hint: Option<&Hint>,
    ) -> CResult<Code> {
        let span = e.span;
        if op.is_relational() {
            let (ty, blob) = self.comparison_type(op, a, b);
            let ty = self.checked_equality_type(e).unwrap_or(ty);
            let h = blob.then_some(&Hint::Blob);
            return Ok(Code::Compare(
                op,
                Box::new((self.expr(a, h)?, self.expr(b, h)?, ty)),
                span,
            ));
        }
        // the expected type, else `Int` where the checker typed the operation so (its
        // operands may hold `Nat`s: moc computes at the static type)
        let k = hint
            .and_then(Hint::num)
            .or_else(|| self.checked_int_arith(e).then_some(NumKind::Int));
        let (ca, cb) = (self.expr(a, hint)?, self.expr(b, hint)?);
        // constant folding keeps literal arithmetic cheap
        if let (Code::Const(x), Code::Const(y)) = (&ca, &cb) {
            if let Ok(v) = num::binary(op, x, y, k) {
                return Ok(Code::Const(v));
            }
        }
        Ok(Code::Binary(op, Box::new((ca, cb)), k, span))
    }

    /// `p := v`.
    pub(super) fn assign(&mut self, p: &Expr, v: &Expr) -> CResult<Code> {
        let (place, h) = self.place(p)?;
        let value = match h {
            Some(h) => self.coerced(v, &h)?,
            None => self.expr(v, None)?,
        };
        Ok(Code::Assign(Box::new(place), Box::new(value)))
    }

    /// `p op= v`.
    pub(super) fn op_assign(&mut self, e: &Expr, op: BinOp, p: &Expr, v: &Expr) -> CResult<Code> {
        let (place, h) = self.place(p)?;
        let value = self.expr(v, h.as_deref())?;
        let k = h
            .as_deref()
            .and_then(Hint::num)
            .or_else(|| self.checked_int_arith(e).then_some(NumKind::Int));
        Ok(Code::OpAssign(
            op,
            Box::new(place),
            Box::new(value),
            k,
            e.span,
        ))
    }
}
