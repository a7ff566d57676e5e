// a class that is an iterator (`next`), used in `for` loops and by Iter functions
import Debug "mo:core/Debug";
import Iter "mo:core/Iter";

class Countdown(from : Nat) {
  var cur = from;
  public func next() : ?Nat {
    if (cur == 0) null else { cur -= 1; ?(cur + 1) }
  };
};

for (i in Countdown(3)) { Debug.print(debug_show i) };
Debug.print(debug_show Iter.toArray(Countdown(5)));
let evens = Iter.filter<Nat>(Countdown(10), func n = n % 2 == 0);
Debug.print(debug_show Iter.toArray(evens));
