type Stack<T> = { items : [T] };
let s : Stack<Nat> = { items = ["a"] };
s
