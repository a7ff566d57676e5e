import Debug "mo:core/Debug";
let v = label exit : Nat { if (true) break exit 42; 0 };
Debug.print(debug_show v);
