// M0156 is at the block too (here the `do`).
let x = do {
  type Grow<A> = ?Grow<[A]>;
  1
};
