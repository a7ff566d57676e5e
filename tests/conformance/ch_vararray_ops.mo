// VarArray: tabulate, map, in-place updates, toArray.
import Debug "mo:core/Debug";
import VarArray "mo:core/VarArray";
let v = VarArray.tabulate<Nat>(5, func i = i);
for (i in v.keys()) { v[i] := v[i] * v[i] };
Debug.print(debug_show v);
Debug.print(debug_show (VarArray.toArray<Nat>(v)));
let w2 = VarArray.map<Nat, Text>(v, func x = debug_show x);
Debug.print(debug_show w2);
