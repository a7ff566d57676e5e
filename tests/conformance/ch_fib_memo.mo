// Dynamic programming with a mutable array.
import Debug "mo:core/Debug";
import VarArray "mo:core/VarArray";
let n = 90;
let memo = VarArray.repeat<Nat>(0, n + 1);
memo[1] := 1;
var i = 2;
while (i <= n) { memo[i] := memo[i - 1] + memo[i - 2]; i += 1 };
Debug.print(debug_show (memo[10], memo[50], memo[90]));
