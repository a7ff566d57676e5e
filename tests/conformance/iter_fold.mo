import Debug "mo:core/Debug";
import Iter "mo:core/Iter";
Debug.print(debug_show (Iter.foldLeft<Nat, Nat>([1, 2, 3].vals(), 10, func (a, x) = a + x)));
Iter.forEach<Text>(["p", "q"].vals(), func t = Debug.print(t));
