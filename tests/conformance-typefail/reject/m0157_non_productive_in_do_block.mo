// The block of `do { .. }` is at the `do`.
let n = do {
  type A = B;
  type B = A;
  1
};
