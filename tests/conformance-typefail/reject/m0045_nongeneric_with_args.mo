type Id = Nat;
let x : Id<Nat> = 3;
x
