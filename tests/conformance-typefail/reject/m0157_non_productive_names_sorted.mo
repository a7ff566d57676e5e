// Every declaration aliasing into the cycle is named, sorted (upper case first).
let x = 1;
type b = a; type a = Z; type Z = b; type a1 = a; type Ok = Nat;
