import Debug "mo:core/Debug";
import Nat "mo:core/Nat";
import Array "mo:core/Array";
var found : ?(Nat, Nat) = null;
label outer for (i in Nat.range(1, 20)) {
  for (j in Nat.range(i, 20)) {
    if (i * j == 91) { found := ?(i, j); break outer };
    if (j > 15) continue outer;
  };
};
Debug.print(debug_show found);
let fs = Array.tabulate<() -> Nat>(4, func i = func () = i * 10);
Debug.print(debug_show(Array.map<() -> Nat, Nat>(fs, func f = f())));
let r = label l : Nat { for (x in [5, 8, 13].vals()) { if (x % 2 == 0) break l x }; 0 };
Debug.print(debug_show r);
let o = do ? { let a = ?3; let b : ?Nat = null; a! + (switch b { case null 1; case (?v) v }) };
Debug.print(debug_show o);
var acc = "";
var k = 0;
while (k < 5) { k += 1; if (k == 3) continue; acc #= Nat.toText(k) };
Debug.print(acc);
func fact(n : Nat) : Nat = if (n == 0) 1 else n * fact(n - 1);
Debug.print(debug_show(fact(25)));
let unsorted : [Int] = [3, -1, 2, -7, 0];
let sorted = Array.sort<Int>(unsorted, func(a, b) = if (a < b) #less else if (a == b) #equal else #greater);
Debug.print(debug_show sorted);
Debug.print(debug_show(Array.foldLeft<Nat, Nat>([1, 2, 3, 4], 0, func(a, x) = a * 2 + x)));
