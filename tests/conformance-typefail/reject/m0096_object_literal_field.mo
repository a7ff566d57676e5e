type Counter = { inc : () -> Nat };
let c : Counter = object { public func inc() : Text { "one" } };
c.inc()
