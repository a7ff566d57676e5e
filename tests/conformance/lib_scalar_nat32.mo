// mo:core/Nat32: the bitwise, wrapping, counting, conversion and range functions, at the edges.
// (lib_scalar_*: written by one template for the eight fixed-width modules.)
import Debug "mo:core/Debug";
import Iter "mo:core/Iter";
import Nat16 "mo:core/Nat16";
import Nat32 "mo:core/Nat32";
import Nat64 "mo:core/Nat64";
import Nat8 "mo:core/Nat8";
func show(what : Text, t : Text) { Debug.print(what # " " # t) };
let vs : [Nat32] = [0, 1, 6, 100, 1_431_655_765, 4_294_967_294, 4_294_967_295];
let shifts : [Nat32] = [0, 1, 7, 31, 32, 35];
for (x in vs.vals()) {
  show(debug_show x, debug_show (Nat32.bitnot(x), Nat32.bitcountNonZero(x), Nat32.bitcountLeadingZero(x), Nat32.bitcountTrailingZero(x), Nat32.explode(x)));
  for (p in [0, 1, 31, 32, 35].vals()) {
    show("  bit " # debug_show p, debug_show (Nat32.bittest(x, p), Nat32.bitset(x, p), Nat32.bitclear(x, p), Nat32.bitflip(x, p)));
  };
  for (y in vs.vals()) {
    show("  wrap", debug_show (Nat32.addWrap(x, y), Nat32.subWrap(x, y), Nat32.mulWrap(x, y), Nat32.bitand(x, y), Nat32.bitor(x, y), Nat32.bitxor(x, y)));
  };
  for (y in shifts.vals()) {
    show("  shift", debug_show (Nat32.bitshiftLeft(x, y), Nat32.bitshiftRight(x, y), Nat32.bitrotLeft(x, y), Nat32.bitrotRight(x, y)));
  };
  show("  powWrap", debug_show (Nat32.powWrap(x, 0), Nat32.powWrap(x, 3), Nat32.powWrap(x, 33)));
  show("  widen", debug_show (Nat32.toNat64(x), Nat32.fromNat64(Nat64.fromIntWrap(Nat32.toNat(x)))));
  if (x >= 0 and x <= 255) { show("  Nat8", debug_show (Nat32.toNat8(x), Nat32.fromNat8(Nat8.fromIntWrap(Nat32.toNat(x))))) };
  if (x >= 0 and x <= 65_535) { show("  Nat16", debug_show (Nat32.toNat16(x), Nat32.fromNat16(Nat16.fromIntWrap(Nat32.toNat(x))))) };
  if (x >= 32 and x < 0xD800) { show("  toChar", debug_show (Nat32.toChar(x))) };
};
show("range", debug_show (Iter.toArray(Nat32.range(1, 5)), Iter.toArray(Nat32.range(5, 5)), Iter.toArray(Nat32.range(4_294_967_293, 4_294_967_295))));
show("rangeInclusive", debug_show (Iter.toArray(Nat32.rangeInclusive(4_294_967_293, 4_294_967_295)), Iter.toArray(Nat32.rangeInclusive(0, 2)), Iter.toArray(Nat32.rangeInclusive(5, 4))));
show("allValues", debug_show (Iter.toArray(Iter.take(Nat32.allValues(), 3))));
var n = 0;
for (v in Nat32.rangeInclusive(4_294_966_995, Nat32.maxValue)) { n += 1 };
show("count", debug_show n);
