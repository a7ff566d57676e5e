type T = { #a : Nat; #b : Nat };
func f(t : T) : Nat {
  switch t {
    case (#a x or #b y) { 0 };
  }
};
f(#a 1)
