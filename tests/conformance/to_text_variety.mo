import Debug "mo:core/Debug";
import Nat "mo:core/Nat";
import Int "mo:core/Int";
import Nat8 "mo:core/Nat8";
import Int8 "mo:core/Int8";
Debug.print(Nat.toText(2 ** 70));
Debug.print(Int.toText(-(2 ** 70)));
Debug.print(Nat8.toText(255));
Debug.print(Int8.toText(-128));
