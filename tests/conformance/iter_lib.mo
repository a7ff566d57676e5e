import Debug "mo:core/Debug";
import Iter "mo:core/Iter";
Debug.print(debug_show (Iter.toArray(Iter.map<Nat, Nat>([1, 2, 3].vals(), func x = x * 2))));
Debug.print(debug_show (Iter.toArray(Iter.filter<Nat>([1, 2, 3, 4].vals(), func x = x > 2))));
Debug.print(debug_show (Iter.size([1, 2, 3].vals())));
Debug.print(debug_show (Iter.toArray(Iter.take([1, 2, 3].vals(), 2))));
Debug.print(debug_show (Iter.toArray(Iter.enumerate(["a", "b"].vals()))));
