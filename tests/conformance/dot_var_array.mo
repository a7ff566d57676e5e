// VarArray functions with a `self` parameter, called with dot notation.
import VarArray "mo:core/VarArray";
import Nat "mo:core/Nat";
import Iter "mo:core/Iter";
import Debug "mo:core/Debug";

let v = [var 4, 1, 3];
Debug.print(debug_show (v.size()));
Debug.print(debug_show (v.isEmpty()));
Debug.print(debug_show (v.map<Nat, Nat>(func x = x * 2)));
Debug.print(debug_show (v.foldLeft<Nat, Nat>(0, func(a, x) = a + x)));
Debug.print(debug_show (v.find(func x = x < 3)));
Debug.print(debug_show (v.toArray()));
Debug.print(debug_show (v.values().toArray()));
Debug.print(debug_show (v.keys().toArray()));
var s = 0;
v.forEach(func x { s += x });
Debug.print(debug_show s);
v.sortInPlace();
Debug.print(debug_show v);
Debug.print(v.toText());
Debug.print(debug_show (v.any(func x = x == 3)));
Debug.print(debug_show (v.all(func x = x == 3)));
Debug.print(debug_show (v.contains(4)));
Debug.print(debug_show (v.indexOf(4)));
Debug.print(debug_show (v.filter(func x = x > 1)));
Debug.print(debug_show (v.findIndex(func x = x > 1)));
