// mo:core/Int8: the bitwise, wrapping, counting, conversion and range functions, at the edges.
// (lib_scalar_*: written by one template for the eight fixed-width modules.)
import Debug "mo:core/Debug";
import Int16 "mo:core/Int16";
import Int32 "mo:core/Int32";
import Int64 "mo:core/Int64";
import Int8 "mo:core/Int8";
import Iter "mo:core/Iter";
import Nat8 "mo:core/Nat8";
func show(what : Text, t : Text) { Debug.print(what # " " # t) };
let vs : [Int8] = [-128, -5, 0, 1, 6, 42, 127];
let shifts : [Int8] = [0, 1, 7, 7, 8, 11, -1];
for (x in vs.vals()) {
  show(debug_show x, debug_show (Int8.bitnot(x), Int8.bitcountNonZero(x), Int8.bitcountLeadingZero(x), Int8.bitcountTrailingZero(x)));
  if (x != Int8.minValue) { show("abs neg", debug_show (Int8.abs(x), Int8.neg(x))) };
  for (p in [0, 1, 7, 8, 11].vals()) {
    show("  bit " # debug_show p, debug_show (Int8.bittest(x, p), Int8.bitset(x, p), Int8.bitclear(x, p), Int8.bitflip(x, p)));
  };
  for (y in vs.vals()) {
    show("  wrap", debug_show (Int8.addWrap(x, y), Int8.subWrap(x, y), Int8.mulWrap(x, y), Int8.bitand(x, y), Int8.bitor(x, y), Int8.bitxor(x, y)));
  };
  for (y in shifts.vals()) {
    show("  shift", debug_show (Int8.bitshiftLeft(x, y), Int8.bitshiftRight(x, y), Int8.bitrotLeft(x, y), Int8.bitrotRight(x, y)));
  };
  show("  powWrap", debug_show (Int8.powWrap(x, 0), Int8.powWrap(x, 3), Int8.powWrap(x, 9)));
  show("  widen", debug_show (Int8.toInt16(x), Int8.fromInt16(Int16.fromIntWrap(Int8.toInt(x))), Int8.toInt32(x), Int8.fromInt32(Int32.fromIntWrap(Int8.toInt(x))), Int8.toInt64(x), Int8.fromInt64(Int64.fromIntWrap(Int8.toInt(x)))));
  show("  Nat8", debug_show (Int8.toNat8(x), Int8.fromNat8(Int8.toNat8(x))));
};
show("range", debug_show (Iter.toArray(Int8.range(1, 5)), Iter.toArray(Int8.range(5, 5)), Iter.toArray(Int8.range(125, 127))));
show("rangeInclusive", debug_show (Iter.toArray(Int8.rangeInclusive(125, 127)), Iter.toArray(Int8.rangeInclusive(-128, -126)), Iter.toArray(Int8.rangeInclusive(5, 4))));
let all = Iter.toArray(Int8.allValues());
show("allValues", debug_show (all.size(), all[0], all[255]));
var n = 0;
for (v in Int8.rangeInclusive(-128, Int8.maxValue)) { n += 1 };
show("count", debug_show n);
