// `label l : Int` types the values of `break l v`: a Nat subtraction there is an Int one
import Debug "mo:core/Debug";
for (k6 in [0, 1].vals()) { Debug.print(debug_show ((label l7 : Int { if (true) { break l7(k6 - 65) }; 752 }) : Int)) };
let x = label l : Int { break l(3) };
Debug.print(debug_show x);
