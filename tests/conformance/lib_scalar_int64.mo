// mo:core/Int64: the bitwise, wrapping, counting, conversion and range functions, at the edges.
// (lib_scalar_*: written by one template for the eight fixed-width modules.)
import Debug "mo:core/Debug";
import Int16 "mo:core/Int16";
import Int32 "mo:core/Int32";
import Int64 "mo:core/Int64";
import Int8 "mo:core/Int8";
import Iter "mo:core/Iter";
import Nat64 "mo:core/Nat64";
func show(what : Text, t : Text) { Debug.print(what # " " # t) };
let vs : [Int64] = [-9_223_372_036_854_775_808, -5, 0, 1, 6, 3_074_457_345_618_258_602, 9_223_372_036_854_775_807];
let shifts : [Int64] = [0, 1, 7, 63, 64, 67, -1];
for (x in vs.vals()) {
  show(debug_show x, debug_show (Int64.bitnot(x), Int64.bitcountNonZero(x), Int64.bitcountLeadingZero(x), Int64.bitcountTrailingZero(x), Int64.explode(x)));
  if (x != Int64.minValue) { show("abs neg", debug_show (Int64.abs(x), Int64.neg(x))) };
  for (p in [0, 1, 63, 64, 67].vals()) {
    show("  bit " # debug_show p, debug_show (Int64.bittest(x, p), Int64.bitset(x, p), Int64.bitclear(x, p), Int64.bitflip(x, p)));
  };
  for (y in vs.vals()) {
    show("  wrap", debug_show (Int64.addWrap(x, y), Int64.subWrap(x, y), Int64.mulWrap(x, y), Int64.bitand(x, y), Int64.bitor(x, y), Int64.bitxor(x, y)));
  };
  for (y in shifts.vals()) {
    show("  shift", debug_show (Int64.bitshiftLeft(x, y), Int64.bitshiftRight(x, y), Int64.bitrotLeft(x, y), Int64.bitrotRight(x, y)));
  };
  show("  powWrap", debug_show (Int64.powWrap(x, 0), Int64.powWrap(x, 3), Int64.powWrap(x, 65)));
  if (x >= -128 and x <= 127) { show("  Int8", debug_show (Int64.toInt8(x), Int64.fromInt8(Int8.fromIntWrap(Int64.toInt(x))))) };
  if (x >= -32_768 and x <= 32_767) { show("  Int16", debug_show (Int64.toInt16(x), Int64.fromInt16(Int16.fromIntWrap(Int64.toInt(x))))) };
  if (x >= -2_147_483_648 and x <= 2_147_483_647) { show("  Int32", debug_show (Int64.toInt32(x), Int64.fromInt32(Int32.fromIntWrap(Int64.toInt(x))))) };
  show("  Nat64", debug_show (Int64.toNat64(x), Int64.fromNat64(Int64.toNat64(x))));
};
show("range", debug_show (Iter.toArray(Int64.range(1, 5)), Iter.toArray(Int64.range(5, 5)), Iter.toArray(Int64.range(9_223_372_036_854_775_805, 9_223_372_036_854_775_807))));
show("rangeInclusive", debug_show (Iter.toArray(Int64.rangeInclusive(9_223_372_036_854_775_805, 9_223_372_036_854_775_807)), Iter.toArray(Int64.rangeInclusive(-9_223_372_036_854_775_808, -9_223_372_036_854_775_806)), Iter.toArray(Int64.rangeInclusive(5, 4))));
show("allValues", debug_show (Iter.toArray(Iter.take(Int64.allValues(), 3))));
var n = 0;
for (v in Int64.rangeInclusive(9_223_372_036_854_775_507, Int64.maxValue)) { n += 1 };
show("count", debug_show n);
