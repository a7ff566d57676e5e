import Debug "mo:core/Debug";
import VarArray "mo:core/VarArray";
Debug.print(debug_show (VarArray.tabulate<Nat>(3, func i = i)));
Debug.print(debug_show (VarArray.toArray<Nat>([var 1, 2])));
Debug.print(debug_show (VarArray.map<Nat, Nat>([var 1, 2], func x = x * 3)));
