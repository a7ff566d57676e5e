// `label` blocks left early with `break l(value)`, in functions and loops
import Debug "mo:core/Debug";

func firstNegative(xs : [Int]) : ?Int {
  label search : ?Int {
    for (x in xs.vals()) { if (x < 0) break search(?x) };
    null
  }
};

func classify(n : Nat) : Text {
  label result : Text {
    if (n == 0) break result "zero";
    if (n % 2 == 0) break result("even");
    "odd"
  }
};

Debug.print(debug_show (firstNegative([3, 0, -2, -7]), firstNegative([1, 2])));
Debug.print(classify(0) # " " # classify(4) # " " # classify(7));
let total = label sum : Nat {
  var s = 0;
  for (i in [1, 2, 3, 4, 5].vals()) { if (s + i > 7) break sum(s); s += i };
  s
};
Debug.print(debug_show total);
