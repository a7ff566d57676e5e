//! The shared reader: bounds-checked, limit-enforcing access to untrusted memory images.
