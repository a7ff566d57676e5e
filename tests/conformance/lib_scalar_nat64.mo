// mo:core/Nat64: the bitwise, wrapping, counting, conversion and range functions, at the edges.
// (lib_scalar_*: written by one template for the eight fixed-width modules.)
import Debug "mo:core/Debug";
import Iter "mo:core/Iter";
import Nat16 "mo:core/Nat16";
import Nat32 "mo:core/Nat32";
import Nat64 "mo:core/Nat64";
import Nat8 "mo:core/Nat8";
func show(what : Text, t : Text) { Debug.print(what # " " # t) };
let vs : [Nat64] = [0, 1, 6, 100, 6_148_914_691_236_517_205, 18_446_744_073_709_551_614, 18_446_744_073_709_551_615];
let shifts : [Nat64] = [0, 1, 7, 63, 64, 67];
for (x in vs.vals()) {
  show(debug_show x, debug_show (Nat64.bitnot(x), Nat64.bitcountNonZero(x), Nat64.bitcountLeadingZero(x), Nat64.bitcountTrailingZero(x), Nat64.explode(x)));
  for (p in [0, 1, 63, 64, 67].vals()) {
    show("  bit " # debug_show p, debug_show (Nat64.bittest(x, p), Nat64.bitset(x, p), Nat64.bitclear(x, p), Nat64.bitflip(x, p)));
  };
  for (y in vs.vals()) {
    show("  wrap", debug_show (Nat64.addWrap(x, y), Nat64.subWrap(x, y), Nat64.mulWrap(x, y), Nat64.bitand(x, y), Nat64.bitor(x, y), Nat64.bitxor(x, y)));
  };
  for (y in shifts.vals()) {
    show("  shift", debug_show (Nat64.bitshiftLeft(x, y), Nat64.bitshiftRight(x, y), Nat64.bitrotLeft(x, y), Nat64.bitrotRight(x, y)));
  };
  show("  powWrap", debug_show (Nat64.powWrap(x, 0), Nat64.powWrap(x, 3), Nat64.powWrap(x, 65)));
  if (x >= 0 and x <= 255) { show("  Nat8", debug_show (Nat64.toNat8(x), Nat64.fromNat8(Nat8.fromIntWrap(Nat64.toNat(x))))) };
  if (x >= 0 and x <= 65_535) { show("  Nat16", debug_show (Nat64.toNat16(x), Nat64.fromNat16(Nat16.fromIntWrap(Nat64.toNat(x))))) };
  if (x >= 0 and x <= 4_294_967_295) { show("  Nat32", debug_show (Nat64.toNat32(x), Nat64.fromNat32(Nat32.fromIntWrap(Nat64.toNat(x))))) };
};
show("range", debug_show (Iter.toArray(Nat64.range(1, 5)), Iter.toArray(Nat64.range(5, 5)), Iter.toArray(Nat64.range(18_446_744_073_709_551_613, 18_446_744_073_709_551_615))));
show("rangeInclusive", debug_show (Iter.toArray(Nat64.rangeInclusive(18_446_744_073_709_551_613, 18_446_744_073_709_551_615)), Iter.toArray(Nat64.rangeInclusive(0, 2)), Iter.toArray(Nat64.rangeInclusive(5, 4))));
show("allValues", debug_show (Iter.toArray(Iter.take(Nat64.allValues(), 3))));
var n = 0;
for (v in Nat64.rangeInclusive(18_446_744_073_709_551_315, Nat64.maxValue)) { n += 1 };
show("count", debug_show n);
