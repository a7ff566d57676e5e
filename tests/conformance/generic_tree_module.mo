// a module with a generic binary search tree over immutable records
import Debug "mo:core/Debug";
import Nat "mo:core/Nat";
import Order "mo:core/Order";

module Tree {
  public type Tree<K, V> = ?{ key : K; value : V; left : Tree<K, V>; right : Tree<K, V> };
  public func insert<K, V>(t : Tree<K, V>, cmp : (K, K) -> Order.Order, k : K, v : V) : Tree<K, V> {
    switch t {
      case null ?{ key = k; value = v; left = null; right = null };
      case (?n) switch (cmp(k, n.key)) {
        case (#less) ?{ n with left = insert(n.left, cmp, k, v) };
        case (#greater) ?{ n with right = insert(n.right, cmp, k, v) };
        case (#equal) ?{ n with value = v };
      };
    }
  };
  public func toArray<K, V>(t : Tree<K, V>) : [(K, V)] {
    switch t {
      case null [];
      case (?n) {
        let l = toArray(n.left);
        let r = toArray(n.right);
        var out : [(K, V)] = l;
        out := Array_concat(out, [(n.key, n.value)]);
        Array_concat(out, r)
      };
    }
  };
  func Array_concat<A>(a : [A], b : [A]) : [A] {
    let n = a.size();
    let m = b.size();
    if (m == 0) return a;
    if (n == 0) return b;
    [a[0]] |> (if (n == 1 and m == 1) [a[0], b[0]] else (if (n == 1) cons(a[0], b) else cons(a[0], Array_concat(rest(a), b))))
  };
  func cons<A>(x : A, xs : [A]) : [A] { let n = xs.size(); if (n == 0) [x] else if (n == 1) [x, xs[0]] else if (n == 2) [x, xs[0], xs[1]] else [x, xs[0], xs[1], xs[2]] };
  func rest<A>(xs : [A]) : [A] { let n = xs.size(); if (n <= 1) [] else if (n == 2) [xs[1]] else if (n == 3) [xs[1], xs[2]] else [xs[1], xs[2], xs[3]] };
};

var t : Tree.Tree<Nat, Text> = null;
for ((k, v) in [(5, "five"), (2, "two"), (8, "eight"), (2, "TWO")].vals()) {
  t := Tree.insert(t, Nat.compare, k, v);
};
Debug.print(debug_show Tree.toArray(t));
