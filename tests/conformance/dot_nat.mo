// Contextual dot on numbers: `n.toText()` is `Nat.toText(n)` (core's Nat.toText has a
// `self` parameter); an Int function takes a Nat receiver when only Int is in scope.
import Nat "mo:core/Nat";
import Int "mo:core/Int";
import Nat8 "mo:core/Nat8";
import Float "mo:core/Float";
import Debug "mo:core/Debug";

let n = 5;
Debug.print(n.toText());
Debug.print((n + 37).toText());
let i : Int = -12;
Debug.print(i.toText());
let j : Int = 12;
Debug.print(debug_show (j.toNat()));
Debug.print(debug_show (n.toInt()));
let b : Nat8 = 200;
Debug.print(b.toText());
Debug.print(debug_show (b.toNat() + 1));
let f = 2.5;
Debug.print(f.toText());
Debug.print(debug_show (f.toInt()));
Debug.print(debug_show ((0.0 / 0.0).isNaN()));
Debug.print(debug_show (n.toFloat()));
Debug.print(debug_show (i.toFloat()));
