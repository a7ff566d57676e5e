import Debug "mo:core/Debug";
func f(n : Nat) : Nat {
  switch n {
    case (-1) { 0 };
    case _ { n };
  }
};
Debug.print(debug_show (f(2)))
