import Debug "mo:core/Debug";
type T = { #a : Nat; #b : Nat; #c };
func f(t : T) : Nat {
  switch t {
    case (#a x or #b x) { x };
    case (#c) { 0 };
  }
};
let g = func (t : { #x; #y }) : Nat { switch t { case (#x or #y) 1 } };
Debug.print(debug_show (f(#a 1), f(#b 2), f(#c), g(#x)))
