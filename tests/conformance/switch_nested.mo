import Debug "mo:core/Debug";
let v : ?(Nat, ?Text) = ?(1, ?"x");
switch v { case (?(n, ?t)) Debug.print(t # debug_show n); case (?(_, null)) Debug.print("no text"); case null Debug.print("none") };
