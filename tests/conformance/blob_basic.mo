import Debug "mo:core/Debug";
let b : Blob = "\00\FF\41";
Debug.print(debug_show b);
Debug.print(debug_show (b.size()));
for (x in b.vals()) { Debug.print(debug_show x) };
