// mo:core Set: add, contains, remove, size, values in order.
import Debug "mo:core/Debug";
import Set "mo:core/Set";
import Text "mo:core/Text";
let s = Set.empty<Text>();
for (w in ["pear", "apple", "fig", "apple"].vals()) { Set.add(s, Text.compare, w) };
Debug.print(debug_show (Set.size(s), Set.contains(s, Text.compare, "fig"), Set.contains(s, Text.compare, "kiwi")));
Set.remove(s, Text.compare, "pear");
for (v in Set.values(s)) { Debug.print(v) };
