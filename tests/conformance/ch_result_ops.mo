// Result: a computation that fails with #err, chained.
import Debug "mo:core/Debug";
import Result "mo:core/Result";
func half(n : Nat) : Result.Result<Nat, Text> { if (n % 2 == 0) #ok(n / 2) else #err("odd: " # debug_show n) };
Debug.print(debug_show (half 10, half 7));
Debug.print(debug_show (Result.chain<Nat, Nat, Text>(half 12, half)));
Debug.print(debug_show (Result.chain<Nat, Nat, Text>(half 6, half)));
Debug.print(debug_show (Result.isOk(half 4), Result.isErr(half 4)));
