import Debug "mo:core/Debug";
import Int "mo:core/Int";
for (i in Int.range(-2, 2)) { Debug.print(debug_show i) };
