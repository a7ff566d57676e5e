//! Pattern matching and binding.

use super::{EResult, Interp};
use crate::script::compile::ir::Pat;
use crate::script::compile::text_to_blob;
use crate::script::value::{ord, Value};

impl Interp {
    /// A part of a value read lazily from the heap (`get(i)`, `value()`, `tag()`,
    /// `payload()`), its decoding charged to the budgets.
    fn lazy_part(
        &mut self,
        h: &std::rc::Rc<dyn crate::script::host::HostObject>,
        name: &str,
        args: &[Value],
    ) -> EResult<Option<Value>> {
        let part = h.call(name, args).map_err(super::host_trap);
        self.charge_host(&**h)?;
        part
    }

    /// Matches `v` against `p`, binding variables; `false` when it does not match.
    pub(crate) fn bind(&mut self, p: &Pat, v: Value) -> EResult<bool> {
        match p {
            Pat::Wild => Ok(true),
            Pat::Bind(slot, fresh) => {
                if *fresh {
                    self.bind_fresh(*slot, v);
                } else {
                    self.write(*slot, v);
                }
                Ok(true)
            }
            // a text literal matches a `Blob` by its bytes (moc types it by the scrutinee)
            Pat::Lit(Value::Text(t)) if matches!(v, Value::Blob(_)) => Ok(match &v {
                Value::Blob(b) => *text_to_blob(t) == **b,
                _ => false,
            }),
            Pat::Lit(l) => Ok(ord::equal(l, &v)),
            Pat::Tuple(ps) => match v {
                Value::Tuple(xs) if xs.len() == ps.len() => {
                    for (p, x) in ps.iter().zip(xs.iter()) {
                        if !self.bind(p, x.clone())? {
                            return Ok(false);
                        }
                    }
                    Ok(true)
                }
                Value::Unit => Ok(ps.is_empty()),
                Value::Host(h) if crate::script::host::lazy::is_lazy_tuple(&*h) => {
                    for (i, p) in ps.iter().enumerate() {
                        let Some(x) = self.lazy_part(&h, "get", &[Value::Nat(i as u64)])? else {
                            return Ok(false);
                        };
                        if !self.bind(p, x)? {
                            return Ok(false);
                        }
                    }
                    Ok(true)
                }
                _ => Ok(false),
            },
            Pat::Opt(q) => match v {
                Value::Opt(x) => self.bind(q, (*x).clone()),
                Value::Host(h) if crate::script::host::lazy::is_lazy(&*h) => {
                    match self.lazy_part(&h, "value", &[])? {
                        Some(Value::Opt(x)) => self.bind(q, (*x).clone()),
                        _ => Ok(false),
                    }
                }
                _ => Ok(false),
            },
            Pat::Variant(tag, q) => match v {
                Value::Variant(tv) if tv.0 == *tag => self.bind(q, tv.1.clone()),
                Value::Host(h) if crate::script::host::lazy::is_lazy(&*h) => {
                    match self.lazy_part(&h, "tag", &[])? {
                        Some(Value::Text(t)) if *t == **tag => {
                            let payload = self.lazy_part(&h, "payload", &[])?;
                            self.bind(q, payload.unwrap_or(Value::Unit))
                        }
                        _ => Ok(false),
                    }
                }
                _ => Ok(false),
            },
            Pat::Record(fs) => match &v {
                Value::Record(r) => {
                    for (name, q) in fs {
                        let Some(f) = r.get(name) else {
                            return Ok(false);
                        };
                        let x = f.get();
                        if !self.bind(q, x)? {
                            return Ok(false);
                        }
                    }
                    Ok(true)
                }
                Value::Host(h) => {
                    for (name, q) in fs {
                        let Ok(Some(x)) = h.field(name) else {
                            return Ok(false);
                        };
                        self.charge_host(&**h)?;
                        if !self.bind(q, x)? {
                            return Ok(false);
                        }
                    }
                    Ok(true)
                }
                _ => Ok(false),
            },
            Pat::Or(a, b) => {
                if self.bind(a, v.clone())? {
                    Ok(true)
                } else {
                    self.bind(b, v)
                }
            }
            Pat::Coerce(q, h) => {
                let v = self.coerce(v, h)?;
                self.bind(q, v)
            }
        }
    }
}
