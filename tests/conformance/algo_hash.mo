import Debug "mo:core/Debug";
import Char "mo:core/Char";
var h : Nat32 = 5381;
for (c in "hello world".chars()) { h := (h << 5) +% h +% Char.toNat32(c) };
Debug.print(debug_show h);
