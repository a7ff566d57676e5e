import Debug "mo:core/Debug";
let b : Blob = "\01";
let t : Text = "x";
Debug.print(debug_show (b == t))
