// Array: map, filter, foldLeft, reverse, tabulate, concat, sort, find.
import Debug "mo:core/Debug";
import Array "mo:core/Array";
import Nat "mo:core/Nat";
let xs = [5, 3, 8, 1];
Debug.print(debug_show (Array.map<Nat, Nat>(xs, func x = x + 1)));
Debug.print(debug_show (Array.filter<Nat>(xs, func x = x > 2)));
Debug.print(debug_show (Array.foldLeft<Nat, Nat>(xs, 0, func(a, x) = a + x)));
Debug.print(debug_show (Array.reverse(xs), Array.concat(xs, [9])));
Debug.print(debug_show (Array.tabulate<Nat>(4, func i = i * 10)));
Debug.print(debug_show (Array.sort(xs, Nat.compare)));
Debug.print(debug_show (Array.find<Nat>(xs, func x = x > 6)));
