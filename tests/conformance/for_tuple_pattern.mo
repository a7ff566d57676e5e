import Debug "mo:core/Debug";
for ((k, v) in [(1, "a"), (2, "b")].vals()) { Debug.print(debug_show k # v) };
