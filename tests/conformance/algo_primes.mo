import Debug "mo:core/Debug";
import Array "mo:core/Array";
var primes : [Nat] = [];
var n = 2;
while (primes.size() < 10) { var p = true; for (q in primes.vals()) { if (n % q == 0) p := false }; if (p) primes := Array.concat(primes, [n]); n += 1 };
Debug.print(debug_show primes);
