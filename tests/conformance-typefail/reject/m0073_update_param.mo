func bump(n : Nat) : Nat {
  n += 1;
  n
};
bump(1)
