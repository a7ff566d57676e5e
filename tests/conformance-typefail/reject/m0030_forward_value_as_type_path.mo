func f() : Nat {
  let x : later.T = 1;
  x
};
let later = { size = 1 };
f()
