// mo:core/Int32: the bitwise, wrapping, counting, conversion and range functions, at the edges.
// (lib_scalar_*: written by one template for the eight fixed-width modules.)
import Debug "mo:core/Debug";
import Int16 "mo:core/Int16";
import Int32 "mo:core/Int32";
import Int64 "mo:core/Int64";
import Int8 "mo:core/Int8";
import Iter "mo:core/Iter";
import Nat32 "mo:core/Nat32";
func show(what : Text, t : Text) { Debug.print(what # " " # t) };
let vs : [Int32] = [-2_147_483_648, -5, 0, 1, 6, 715_827_882, 2_147_483_647];
let shifts : [Int32] = [0, 1, 7, 31, 32, 35, -1];
for (x in vs.vals()) {
  show(debug_show x, debug_show (Int32.bitnot(x), Int32.bitcountNonZero(x), Int32.bitcountLeadingZero(x), Int32.bitcountTrailingZero(x), Int32.explode(x)));
  if (x != Int32.minValue) { show("abs neg", debug_show (Int32.abs(x), Int32.neg(x))) };
  for (p in [0, 1, 31, 32, 35].vals()) {
    show("  bit " # debug_show p, debug_show (Int32.bittest(x, p), Int32.bitset(x, p), Int32.bitclear(x, p), Int32.bitflip(x, p)));
  };
  for (y in vs.vals()) {
    show("  wrap", debug_show (Int32.addWrap(x, y), Int32.subWrap(x, y), Int32.mulWrap(x, y), Int32.bitand(x, y), Int32.bitor(x, y), Int32.bitxor(x, y)));
  };
  for (y in shifts.vals()) {
    show("  shift", debug_show (Int32.bitshiftLeft(x, y), Int32.bitshiftRight(x, y), Int32.bitrotLeft(x, y), Int32.bitrotRight(x, y)));
  };
  show("  powWrap", debug_show (Int32.powWrap(x, 0), Int32.powWrap(x, 3), Int32.powWrap(x, 33)));
  show("  widen", debug_show (Int32.toInt64(x), Int32.fromInt64(Int64.fromIntWrap(Int32.toInt(x)))));
  if (x >= -128 and x <= 127) { show("  Int8", debug_show (Int32.toInt8(x), Int32.fromInt8(Int8.fromIntWrap(Int32.toInt(x))))) };
  if (x >= -32_768 and x <= 32_767) { show("  Int16", debug_show (Int32.toInt16(x), Int32.fromInt16(Int16.fromIntWrap(Int32.toInt(x))))) };
  show("  Nat32", debug_show (Int32.toNat32(x), Int32.fromNat32(Int32.toNat32(x))));
};
show("range", debug_show (Iter.toArray(Int32.range(1, 5)), Iter.toArray(Int32.range(5, 5)), Iter.toArray(Int32.range(2_147_483_645, 2_147_483_647))));
show("rangeInclusive", debug_show (Iter.toArray(Int32.rangeInclusive(2_147_483_645, 2_147_483_647)), Iter.toArray(Int32.rangeInclusive(-2_147_483_648, -2_147_483_646)), Iter.toArray(Int32.rangeInclusive(5, 4))));
show("allValues", debug_show (Iter.toArray(Iter.take(Int32.allValues(), 3))));
var n = 0;
for (v in Int32.rangeInclusive(2_147_483_347, Int32.maxValue)) { n += 1 };
show("count", debug_show n);
