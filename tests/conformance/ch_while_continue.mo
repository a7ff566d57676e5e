// continue and break in while loops with labels, and loop-while.
import Debug "mo:core/Debug";
var i = 0;
var odd = "";
label l while (i < 10) {
  i += 1;
  if (i % 2 == 0) continue l;
  if (i > 7) break l;
  odd #= debug_show i;
};
Debug.print(odd);
var n = 27;
var steps = 0;
while (n != 1) { n := if (n % 2 == 0) n / 2 else 3 * n + 1; steps += 1 };
Debug.print(debug_show steps);
