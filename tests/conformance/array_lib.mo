import Debug "mo:core/Debug";
import Array "mo:core/Array";
Debug.print(debug_show (Array.tabulate<Nat>(5, func i = i * i)));
Debug.print(debug_show (Array.map<Nat, Nat>([1, 2, 3], func x = x + 1)));
Debug.print(debug_show (Array.filter<Nat>([1, 2, 3, 4], func x = x % 2 == 0)));
Debug.print(debug_show (Array.foldLeft<Nat, Nat>([1, 2, 3], 0, func (a, x) = a + x)));
Debug.print(debug_show (Array.find<Nat>([1, 5, 9], func x = x > 3)));
Debug.print(debug_show (Array.reverse([1, 2, 3])));
