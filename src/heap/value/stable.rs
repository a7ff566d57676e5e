//! The actor's stable variables by name, with their types from the signature and their
//! (lazy) values from the heap.

use std::sync::Arc;

use super::{DecodeError, Decoder, LazyValue};
use crate::heap::types::{parse_signature, StableSignature, Type, VarKind};
use crate::heap::Heap;

/// One stable variable: name, kind, declared type and its value (not decoded yet).
#[derive(Debug, Clone, PartialEq)]
pub struct NamedVar {
    /// The variable name.
    pub name: Arc<str>,
    /// `var` or `let`.
    pub kind: VarKind,
    /// The declared type.
    pub ty: Arc<Type>,
    /// The value, decoded on demand with a [`Decoder`].
    pub value: LazyValue,
}

/// Parses the heap's `motoko:stable-types` signature.
pub fn heap_signature(heap: &Heap) -> Result<StableSignature, DecodeError> {
    let text = heap.stable_signature().ok_or(DecodeError::NoSignature)?;
    Ok(parse_signature(text)?)
}

/// The stable variables of `heap` described by `sig`, sorted by name.
pub fn stable_variables(heap: &Heap, sig: &StableSignature) -> Result<Vec<NamedVar>, DecodeError> {
    let roots = heap.stable_vars()?;
    let mut out = Vec::with_capacity(sig.vars.len());
    for v in &sig.vars {
        let root = roots
            .iter()
            .find(|r| *r.name == *v.name)
            .ok_or_else(|| DecodeError::NoSlot(v.name.to_string()))?;
        let word = heap.stable_var_value(root)?;
        out.push(NamedVar {
            name: v.name.clone(),
            kind: v.kind,
            ty: v.ty.clone(),
            value: LazyValue {
                word,
                ty: Some(v.ty.clone()),
            },
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// A decoder for `heap` that knows every label of `sig` (for untyped parts).
pub fn signature_decoder<'h>(heap: &'h Heap, sig: &'h StableSignature) -> Decoder<'h> {
    let mut d = Decoder::new(heap, &sig.env);
    d.add_labels(sig.labels());
    d
}
