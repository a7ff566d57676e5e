type Grow<T> = ?Grow<[T]>;
let g : Grow<Nat> = null;
g
