// contextual dot: two imported modules define `toText`; the receiver's static type chooses
import Debug "mo:core/Debug";
import Nat "mo:core/Nat";
import Int "mo:core/Int";
import Nat8 "mo:core/Nat8";
import Text "mo:core/Text";
let n : Nat = 42;
let i : Int = -7;
let b : Nat8 = 200;
Debug.print(n.toText());
Debug.print(i.toText());
Debug.print(b.toText());
Debug.print("abc".concat("def"));
