//! Pattern matching and binding.

use super::{EResult, Interp};
use crate::script::compile::ir::Pat;
use crate::script::compile::text_to_blob;
use crate::script::value::{ord, Value};

impl Interp {
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
                _ => Ok(false),
            },
            Pat::Opt(q) => match v {
                Value::Opt(x) => self.bind(q, (*x).clone()),
                _ => Ok(false),
            },
            Pat::Variant(tag, q) => match v {
                Value::Variant(tv) if tv.0 == *tag => self.bind(q, tv.1.clone()),
                _ => Ok(false),
            },
            Pat::Record(fs) => match &v {
                Value::Record(r) => {
                    for (name, q) in fs {
                        let Some(f) = r.get(name) else {
                            return Ok(false);
                        };
                        let x = f.value.borrow().clone();
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
