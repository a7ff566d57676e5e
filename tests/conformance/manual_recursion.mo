// Recursion on recursive types: lists as options of pairs, mutual recursion.
import Debug "mo:core/Debug";
type List<T> = ?(T, List<T>);
func fromArray(xs : [Nat]) : List<Nat> {
  var l : List<Nat> = null;
  var i = xs.size();
  while (i > 0) { i -= 1; l := ?(xs[i], l) };
  l
};
func sum(l : List<Nat>) : Nat { switch l { case null 0; case (?(h, t)) h + sum t } };
func rev(l : List<Nat>, acc : List<Nat>) : List<Nat> { switch l { case null acc; case (?(h, t)) rev(t, ?(h, acc)) } };
let l = fromArray([1, 2, 3, 4]);
Debug.print(debug_show (sum l, rev(l, null)));
func isEven(n : Nat) : Bool { if (n == 0) true else isOdd(n - 1) };
func isOdd(n : Nat) : Bool { if (n == 0) false else isEven(n - 1) };
Debug.print(debug_show (isEven 10, isOdd 7, isEven 3));
func ack(m : Nat, n : Nat) : Nat {
  if (m == 0) n + 1 else if (n == 0) ack(m - 1, 1) else ack(m - 1, ack(m, n - 1))
};
Debug.print(debug_show ack(2, 3));
