import Debug "mo:core/Debug";
import Array "mo:core/Array";
Debug.print(debug_show (Array.fromIter<Nat>([1, 2].vals())));
Debug.print(debug_show (Array.toVarArray<Nat>([1, 2])));
Debug.print(debug_show (Array.repeat<Nat>(7, 3)));
Debug.print(debug_show (Array.sliceToArray<Nat>([1, 2, 3, 4], 1, 3)));
Debug.print(debug_show (Array.foldRight<Nat, Text>([1, 2], "", func (x, a) = a # debug_show x)));
