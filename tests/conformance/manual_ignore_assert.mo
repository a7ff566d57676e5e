// ignore, assert, and a failing assert's trap.
import Debug "mo:core/Debug";
ignore 5 + 5;
assert (1 + 1 == 2);
Debug.print("ok");
func check(n : Nat) : Nat { assert (n < 10); n * 2 };
Debug.print(debug_show check 4);
Debug.print(debug_show check 12);
