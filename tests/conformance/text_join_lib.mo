import Debug "mo:core/Debug";
import Text "mo:core/Text";
import Array "mo:core/Array";
let parts = Array.map<Nat, Text>([1, 2, 3], func n = debug_show n);
Debug.print(Text.join(parts.vals(), "-"));
