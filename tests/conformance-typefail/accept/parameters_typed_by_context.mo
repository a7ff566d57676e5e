import Debug "mo:core/Debug";
import Array "mo:core/Array";
let f : Nat -> Nat = func x = x + 1;
let ys = Array.map<Nat, Nat>([1, 2], func x = x * 2);
let zs = Array.map([1, 2], func (x : Nat) : Nat = x + 10);
let g = func ((a, b) : (Nat, Nat)) : Nat = a + b;
Debug.print(debug_show (f 1, ys, zs, g(1, 2)))
