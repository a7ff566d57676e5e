// Structural equality and ordering of tuples, options, arrays, records.
import Debug "mo:core/Debug";
Debug.print(debug_show ((1, "a") == (1, "a"), (1, "a") != (1, "b")));
Debug.print(debug_show (?3 == ?3, null == (null : ?Nat), ?1 == null));
Debug.print(debug_show ([1, 2] == [1, 2], [1, 2] == [2, 1], [] == ([] : [Nat])));
Debug.print(debug_show ({ a = 1; b = "x" } == { b = "x"; a = 1 }));
Debug.print(debug_show (-3 < 2, (-3 : Int) <= -3, 2.5 > 2.4, "Zebra" < "apple"));
