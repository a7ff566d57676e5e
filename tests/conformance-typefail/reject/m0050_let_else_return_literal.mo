func get(o : ?Nat) : Nat {
  let ?v = o else { return "none" };
  v
};
get(null)
