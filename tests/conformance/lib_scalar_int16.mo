// mo:core/Int16: the bitwise, wrapping, counting, conversion and range functions, at the edges.
// (lib_scalar_*: written by one template for the eight fixed-width modules.)
import Debug "mo:core/Debug";
import Int16 "mo:core/Int16";
import Int32 "mo:core/Int32";
import Int64 "mo:core/Int64";
import Int8 "mo:core/Int8";
import Iter "mo:core/Iter";
import Nat16 "mo:core/Nat16";
func show(what : Text, t : Text) { Debug.print(what # " " # t) };
let vs : [Int16] = [-32_768, -5, 0, 1, 6, 10_922, 32_767];
let shifts : [Int16] = [0, 1, 7, 15, 16, 19, -1];
for (x in vs.vals()) {
  show(debug_show x, debug_show (Int16.bitnot(x), Int16.bitcountNonZero(x), Int16.bitcountLeadingZero(x), Int16.bitcountTrailingZero(x), Int16.explode(x)));
  if (x != Int16.minValue) { show("abs neg", debug_show (Int16.abs(x), Int16.neg(x))) };
  for (p in [0, 1, 15, 16, 19].vals()) {
    show("  bit " # debug_show p, debug_show (Int16.bittest(x, p), Int16.bitset(x, p), Int16.bitclear(x, p), Int16.bitflip(x, p)));
  };
  for (y in vs.vals()) {
    show("  wrap", debug_show (Int16.addWrap(x, y), Int16.subWrap(x, y), Int16.mulWrap(x, y), Int16.bitand(x, y), Int16.bitor(x, y), Int16.bitxor(x, y)));
  };
  for (y in shifts.vals()) {
    show("  shift", debug_show (Int16.bitshiftLeft(x, y), Int16.bitshiftRight(x, y), Int16.bitrotLeft(x, y), Int16.bitrotRight(x, y)));
  };
  show("  powWrap", debug_show (Int16.powWrap(x, 0), Int16.powWrap(x, 3), Int16.powWrap(x, 17)));
  show("  widen", debug_show (Int16.toInt32(x), Int16.fromInt32(Int32.fromIntWrap(Int16.toInt(x))), Int16.toInt64(x), Int16.fromInt64(Int64.fromIntWrap(Int16.toInt(x)))));
  if (x >= -128 and x <= 127) { show("  Int8", debug_show (Int16.toInt8(x), Int16.fromInt8(Int8.fromIntWrap(Int16.toInt(x))))) };
  show("  Nat16", debug_show (Int16.toNat16(x), Int16.fromNat16(Int16.toNat16(x))));
};
show("range", debug_show (Iter.toArray(Int16.range(1, 5)), Iter.toArray(Int16.range(5, 5)), Iter.toArray(Int16.range(32_765, 32_767))));
show("rangeInclusive", debug_show (Iter.toArray(Int16.rangeInclusive(32_765, 32_767)), Iter.toArray(Int16.rangeInclusive(-32_768, -32_766)), Iter.toArray(Int16.rangeInclusive(5, 4))));
show("allValues", debug_show (Iter.toArray(Iter.take(Int16.allValues(), 3))));
var n = 0;
for (v in Int16.rangeInclusive(32_467, Int16.maxValue)) { n += 1 };
show("count", debug_show n);
