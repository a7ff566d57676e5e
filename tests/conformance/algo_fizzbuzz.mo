import Debug "mo:core/Debug";
import Nat "mo:core/Nat";
for (i in Nat.rangeInclusive(1, 15)) { Debug.print(if (i % 15 == 0) "FizzBuzz" else if (i % 3 == 0) "Fizz" else if (i % 5 == 0) "Buzz" else Nat.toText(i)) };
