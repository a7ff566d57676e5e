import Debug "mo:core/Debug";
let t : (Nat, Text, ?Int) = (1, "a", ?(-3));
Debug.print(debug_show (t == (1, "a", ?(-3)), t == (1, "a", null), t != (2, "a", ?(-3))));
let a : [[Nat]] = [[1, 2], [], [3]];
Debug.print(debug_show (a == [[1, 2], [], [3]], a == [[1, 2], [3]], a == [[1, 2], [], [4]]));
let e : [Text] = [];
Debug.print(debug_show (e == [], ["x"] == ["x"], [(1, 'a')] == [(1, 'a')]));
let n : Int = 5;
Debug.print(debug_show ([n] == [5], (n, +5) == (5, 5)));
