// Nat and Int conversions: toText, fromText, abs, toNat of fixed widths.
import Debug "mo:core/Debug";
import Nat "mo:core/Nat";
import Int "mo:core/Int";
import Nat8 "mo:core/Nat8";
import Int16 "mo:core/Int16";
Debug.print(debug_show (Nat.toText(12345), Nat.fromText("987"), Nat.fromText("9x")));
Debug.print(debug_show (Int.abs(-42), Int.toText(-7), Int.fromText("-15")));
Debug.print(debug_show (Nat8.toNat(255), Nat8.fromNat(7), Int16.toInt(-300)));
Debug.print(debug_show (Nat.max(3, 9), Int.min(-3, 2), Nat.compare(2, 2)));
