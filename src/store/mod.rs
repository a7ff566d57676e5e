//! The local snapshot store: layout on disk, SHA-256 manifests, HMAC authentication.
