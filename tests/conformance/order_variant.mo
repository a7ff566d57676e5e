import Debug "mo:core/Debug";
import Nat "mo:core/Nat";
switch (Nat.compare(3, 3)) { case (#equal) Debug.print("eq"); case _ Debug.print("ne") };
