type Shape = { #circle : Nat; #square : Nat };
let big = "big";
func area(s : Shape) : Nat {
  switch s {
    case (#circle r) { 3 * r * r };
    case (#square _) { big };
  }
};
area(#square 2)
