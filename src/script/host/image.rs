//! The host value `image`: the snapshot's raw main memory, read-only and bounds-checked.

use super::args::{arg_u64, check_arity};
use super::context::SnapshotContext;
use super::{HostError, HostObject};
use crate::image::ImageError;
use crate::script::value::Value;
use std::rc::Rc;
use std::sync::Arc;

/// The largest byte range `image.blob` returns at once.
pub const MAX_BLOB: u64 = 16 << 20;

/// The `image` host object.
pub struct ImageHost {
    ctx: Arc<SnapshotContext>,
    /// Blob bytes read and not yet charged ([`HostObject::take_bytes`]).
    bytes: std::cell::Cell<u64>,
}

impl ImageHost {
    /// `image` over `ctx`.
    pub fn new(ctx: Arc<SnapshotContext>) -> ImageHost {
        ImageHost {
            ctx,
            bytes: std::cell::Cell::new(0),
        }
    }
}

/// A read of the image at an address the script chose: outside the image is the script's
/// misuse, a reader limit is a limit.
fn oob(e: ImageError) -> HostError {
    match e.limit() {
        Some(_) => HostError::data("image: ", e),
        None => HostError::Misuse(format!("image: {e}")),
    }
}

impl HostObject for ImageHost {
    fn describe(&self) -> String {
        format!("image ({} bytes)", self.ctx.heap().image().len())
    }

    fn field(&self, _name: &str) -> Result<Option<Value>, HostError> {
        Ok(None)
    }

    fn call(&self, name: &str, args: &[Value]) -> Result<Option<Value>, HostError> {
        let image = self.ctx.heap().image();
        let v = match name {
            "size" => {
                check_arity(name, args, 0)?;
                Value::Nat(image.len())
            }
            "loadNat8" => {
                check_arity(name, args, 1)?;
                Value::Nat8(image.read_u8(arg_u64(name, args, 0)?).map_err(oob)?)
            }
            "loadNat16" => {
                check_arity(name, args, 1)?;
                Value::Nat16(image.read_u16(arg_u64(name, args, 0)?).map_err(oob)?)
            }
            "loadNat32" => {
                check_arity(name, args, 1)?;
                Value::Nat32(image.read_u32(arg_u64(name, args, 0)?).map_err(oob)?)
            }
            "loadNat64" => {
                check_arity(name, args, 1)?;
                Value::Nat64(image.read_u64(arg_u64(name, args, 0)?).map_err(oob)?)
            }
            "loadWord" => {
                check_arity(name, args, 1)?;
                Value::Nat(image.read_word(arg_u64(name, args, 0)?).map_err(oob)?)
            }
            "loadBlob" => {
                check_arity(name, args, 2)?;
                let addr = arg_u64(name, args, 0)?;
                let len = arg_u64(name, args, 1)?;
                if len > MAX_BLOB {
                    return Err(HostError::Limit(format!(
                        "image.loadBlob: {len} bytes exceeds the limit of {MAX_BLOB} bytes"
                    )));
                }
                let blob = image.bytes(addr, len).map_err(oob)?;
                self.bytes.set(self.bytes.get().saturating_add(len));
                Value::Blob(Rc::from(blob))
            }
            _ => return Ok(None),
        };
        Ok(Some(v))
    }

    fn take_bytes(&self) -> u64 {
        self.bytes.replace(0)
    }

    fn field_names(&self) -> Vec<String> {
        [
            "size",
            "loadNat8",
            "loadNat16",
            "loadNat32",
            "loadNat64",
            "loadWord",
            "loadBlob",
        ]
        .map(String::from)
        .to_vec()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
