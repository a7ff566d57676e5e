import Debug "mo:core/Debug";
var found : ?Nat = null;
for (n in [3, 8, 11, 14, 20].vals()) {
  if (n % 2 == 1) continue;
  if (n > 12) { found := ?n; break };
};
Debug.print(debug_show found);
var i = 0;
var sum = 0;
while (true) {
  i += 1;
  if (i % 3 == 0) continue;
  if (i > 10) break;
  sum += i;
};
Debug.print(debug_show (i, sum));
var k = 0;
loop { k += 2; if (k >= 7) break } while (true);
Debug.print(debug_show k);
