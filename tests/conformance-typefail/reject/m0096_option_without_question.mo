func find(xs : [Nat], k : Nat) : ?Nat {
  for (x in xs.vals()) { if (x == k) { return x } };
  null
};
find([1, 2], 2)
