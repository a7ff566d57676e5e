import Debug "mo:core/Debug";
import Text "mo:core/Text";
import Array "mo:core/Array";
let parts = ["a", "b", "c"];
Debug.print(parts.vals().join(", "))
