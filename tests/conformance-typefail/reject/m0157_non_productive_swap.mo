type Swap<T, U> = Swap<U, T>;
let n : Nat = 1;
n
