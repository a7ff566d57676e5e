import Debug "mo:core/Debug";
import Iter "mo:core/Iter";
Debug.print(debug_show (Iter.toArray(Iter.concat([1, 2].vals(), [3].vals())), Iter.toArray(Iter.reverse([1, 2, 3].vals()))));
