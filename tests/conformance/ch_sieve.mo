// Sieve of Eratosthenes.
import Debug "mo:core/Debug";
import VarArray "mo:core/VarArray";
let n = 100;
let prime = VarArray.repeat<Bool>(true, n + 1);
prime[0] := false; prime[1] := false;
var p = 2;
while (p * p <= n) {
  if (prime[p]) { var m = p * p; while (m <= n) { prime[m] := false; m += p } };
  p += 1
};
var count = 0;
var last = 0;
for (i in prime.keys()) { if (prime[i]) { count += 1; last := i } };
Debug.print(debug_show (count, last));
