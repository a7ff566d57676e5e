import Debug "mo:core/Debug";
import Nat "mo:core/Nat";
Debug.print(debug_show (Nat.toText(12345)));
Debug.print(debug_show (Nat.fromText("42")));
Debug.print(debug_show (Nat.fromText("x4")));
Debug.print(debug_show (Nat.min(3, 4)));
Debug.print(debug_show (Nat.max(3, 4)));
Debug.print(debug_show (Nat.compare(1, 2)));
