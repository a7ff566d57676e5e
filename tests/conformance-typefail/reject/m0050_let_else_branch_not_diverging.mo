func first(o : ?Nat) : Nat {
  let ?v = o else { 0 };
  v
};
first(null)
