//! A small deterministic host that runs moc-compiled canisters on wasmi.
