module A { public type T = Nat; public let x = 1 };
module B { public type T = Text; public let y = 2 };
let c = { A and B };
c.x
