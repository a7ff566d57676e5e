// Manual, "Loops and labels": break and continue with labels, labeled blocks with values.
import Debug "mo:core/Debug";
var out = "";
label outer for (i in [1, 2, 3].vals()) {
  label inner for (j in [1, 2, 3].vals()) {
    if (j == 2) continue inner;
    if (i == 3) break outer;
    out #= debug_show (i, j) # " ";
  };
};
Debug.print(out);
let v = label find : Nat {
  for (x in [4, 8, 15, 16].vals()) { if (x > 10) break find x };
  0
};
Debug.print(debug_show v);
var k = 0;
label l loop { k += 1; if (k >= 5) break l };
Debug.print(debug_show k);
var w = 10;
while (w > 0) { w -= 3 };
Debug.print(debug_show w);
var d = 0;
loop { d += 2 } while (d < 7);
Debug.print(debug_show d);
