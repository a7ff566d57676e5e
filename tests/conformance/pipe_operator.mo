// the pipe `|>` with `_` for the value piped in: lowest precedence, left associative
import Debug "mo:core/Debug";
import Array "mo:core/Array";

Debug.print(debug_show (1 + 2 |> _ * 3));
Debug.print(debug_show (false or true |> not _));
Debug.print(debug_show (1 |> _ + 1 |> _ * 5));
let x = 4 |> (_, _ + 1);
Debug.print(debug_show x);
let words = ["pear", "fig", "banana"]
  |> Array.filter<Text>(_, func w = w.size() > 3)
  |> Array.map<Text, Nat>(_, func w = w.size());
Debug.print(debug_show words);
func twice(n : Nat) : Nat { 2 * n };
Debug.print(debug_show (5 |> twice _ |> twice(_) |> debug_show _));
