import Debug "mo:core/Debug";
func firstEven(xs : [Nat]) : ?Nat {
  for (x in xs.vals()) { if (x % 2 == 0) return ?x };
  null
};
let none : ?Nat = null;
let nested : ??Nat = ?null;
Debug.print(debug_show (firstEven([1, 3, 4]), firstEven([1]), none, nested))
