// `(null)!` has type None, so `do ? { (null)! }` is a `?None` and the value bound by
// `?s` is a None: moc finds no component 0 in it (the differential generator wrote this).
let z : Nat8 = switch (do ? { (null)! }) { case (?s) s.0; case null 1 };
