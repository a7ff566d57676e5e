// mo:core/Nat16: the bitwise, wrapping, counting, conversion and range functions, at the edges.
// (lib_scalar_*: written by one template for the eight fixed-width modules.)
import Debug "mo:core/Debug";
import Iter "mo:core/Iter";
import Nat16 "mo:core/Nat16";
import Nat32 "mo:core/Nat32";
import Nat64 "mo:core/Nat64";
import Nat8 "mo:core/Nat8";
func show(what : Text, t : Text) { Debug.print(what # " " # t) };
let vs : [Nat16] = [0, 1, 6, 100, 21_845, 65_534, 65_535];
let shifts : [Nat16] = [0, 1, 7, 15, 16, 19];
for (x in vs.vals()) {
  show(debug_show x, debug_show (Nat16.bitnot(x), Nat16.bitcountNonZero(x), Nat16.bitcountLeadingZero(x), Nat16.bitcountTrailingZero(x), Nat16.explode(x)));
  for (p in [0, 1, 15, 16, 19].vals()) {
    show("  bit " # debug_show p, debug_show (Nat16.bittest(x, p), Nat16.bitset(x, p), Nat16.bitclear(x, p), Nat16.bitflip(x, p)));
  };
  for (y in vs.vals()) {
    show("  wrap", debug_show (Nat16.addWrap(x, y), Nat16.subWrap(x, y), Nat16.mulWrap(x, y), Nat16.bitand(x, y), Nat16.bitor(x, y), Nat16.bitxor(x, y)));
  };
  for (y in shifts.vals()) {
    show("  shift", debug_show (Nat16.bitshiftLeft(x, y), Nat16.bitshiftRight(x, y), Nat16.bitrotLeft(x, y), Nat16.bitrotRight(x, y)));
  };
  show("  powWrap", debug_show (Nat16.powWrap(x, 0), Nat16.powWrap(x, 3), Nat16.powWrap(x, 17)));
  show("  widen", debug_show (Nat16.toNat32(x), Nat16.fromNat32(Nat32.fromIntWrap(Nat16.toNat(x))), Nat16.toNat64(x), Nat16.fromNat64(Nat64.fromIntWrap(Nat16.toNat(x)))));
  if (x >= 0 and x <= 255) { show("  Nat8", debug_show (Nat16.toNat8(x), Nat16.fromNat8(Nat8.fromIntWrap(Nat16.toNat(x))))) };
};
show("range", debug_show (Iter.toArray(Nat16.range(1, 5)), Iter.toArray(Nat16.range(5, 5)), Iter.toArray(Nat16.range(65_533, 65_535))));
show("rangeInclusive", debug_show (Iter.toArray(Nat16.rangeInclusive(65_533, 65_535)), Iter.toArray(Nat16.rangeInclusive(0, 2)), Iter.toArray(Nat16.rangeInclusive(5, 4))));
show("allValues", debug_show (Iter.toArray(Iter.take(Nat16.allValues(), 3))));
var n = 0;
for (v in Nat16.rangeInclusive(65_235, Nat16.maxValue)) { n += 1 };
show("count", debug_show n);
