func f(r : { a : Nat }) : Nat {
  let (x, y) = r;
  x + y
};
f({ a = 1 })
