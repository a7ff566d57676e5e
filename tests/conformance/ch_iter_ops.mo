// Iter: map, filter, toArray, size, foldLeft over ranges.
import Debug "mo:core/Debug";
import Iter "mo:core/Iter";
import Nat "mo:core/Nat";
let evens = Iter.toArray(Iter.filter<Nat>(Nat.range(0, 10), func n = n % 2 == 0));
Debug.print(debug_show evens);
let squares = Iter.toArray(Iter.map<Nat, Nat>(Nat.range(1, 5), func n = n * n));
Debug.print(debug_show squares);
Debug.print(debug_show (Iter.foldLeft<Nat, Nat>(Nat.range(1, 11), 0, func(a, b) = a + b)));
Debug.print(debug_show (Iter.size(Nat.range(3, 9))));
