import Debug "mo:core/Debug";
import Array "mo:core/Array";
for ((i, x) in Array.enumerate(["x", "y"])) { Debug.print(debug_show (i, x)) };
