func f(n : Nat) : Nat {
  let x : n.T = n;
  x
};
f(1)
