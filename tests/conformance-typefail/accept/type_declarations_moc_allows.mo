import Debug "mo:core/Debug";
type L<T> = ?(T, L<T>);
type Tree<T> = { #leaf : T; #node : [Tree<T>] };
type B = { b : Nat };
type A = { a : Nat } and B;
type P<X, Y> = (X, Y);
type Q<Z> = P<Z, Z>;
let l : L<Nat> = ?(1, ?(2, null));
let t : Tree<Nat> = #node([#leaf 1, #leaf 2]);
let x : A = { a = 1; b = 2 };
let q : Q<Nat> = (3, 4);
Debug.print(debug_show (l, t, x.a, x.b, q))
