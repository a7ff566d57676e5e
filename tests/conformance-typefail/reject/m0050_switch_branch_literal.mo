type Shape = { #circle : Nat; #square : Nat };
func area(s : Shape) : Nat {
  switch s {
    case (#circle r) { 3 * r * r };
    case (#square a) { "big" };
  }
};
area(#square 2)
