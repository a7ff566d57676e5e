// Binary search over a sorted array, found and not found.
import Debug "mo:core/Debug";
func search(xs : [Int], x : Int) : ?Nat {
  var lo = 0;
  var hi = xs.size();
  while (lo < hi) {
    let mid = (lo + hi) / 2;
    if (xs[mid] == x) return ?mid;
    if (xs[mid] < x) lo := mid + 1 else hi := mid;
  };
  null
};
let xs : [Int] = [-5, -1, 0, 3, 8, 13, 21];
Debug.print(debug_show (search(xs, 8), search(xs, -5), search(xs, 4), search(xs, 21)));
