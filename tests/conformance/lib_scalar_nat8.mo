// mo:core/Nat8: the bitwise, wrapping, counting, conversion and range functions, at the edges.
// (lib_scalar_*: written by one template for the eight fixed-width modules.)
import Debug "mo:core/Debug";
import Iter "mo:core/Iter";
import Nat16 "mo:core/Nat16";
import Nat32 "mo:core/Nat32";
import Nat64 "mo:core/Nat64";
import Nat8 "mo:core/Nat8";
func show(what : Text, t : Text) { Debug.print(what # " " # t) };
let vs : [Nat8] = [0, 1, 6, 100, 85, 254, 255];
let shifts : [Nat8] = [0, 1, 7, 7, 8, 11];
for (x in vs.vals()) {
  show(debug_show x, debug_show (Nat8.bitnot(x), Nat8.bitcountNonZero(x), Nat8.bitcountLeadingZero(x), Nat8.bitcountTrailingZero(x)));
  for (p in [0, 1, 7, 8, 11].vals()) {
    show("  bit " # debug_show p, debug_show (Nat8.bittest(x, p), Nat8.bitset(x, p), Nat8.bitclear(x, p), Nat8.bitflip(x, p)));
  };
  for (y in vs.vals()) {
    show("  wrap", debug_show (Nat8.addWrap(x, y), Nat8.subWrap(x, y), Nat8.mulWrap(x, y), Nat8.bitand(x, y), Nat8.bitor(x, y), Nat8.bitxor(x, y)));
  };
  for (y in shifts.vals()) {
    show("  shift", debug_show (Nat8.bitshiftLeft(x, y), Nat8.bitshiftRight(x, y), Nat8.bitrotLeft(x, y), Nat8.bitrotRight(x, y)));
  };
  show("  powWrap", debug_show (Nat8.powWrap(x, 0), Nat8.powWrap(x, 3), Nat8.powWrap(x, 9)));
  show("  widen", debug_show (Nat8.toNat16(x), Nat8.fromNat16(Nat16.fromIntWrap(Nat8.toNat(x))), Nat8.toNat32(x), Nat8.fromNat32(Nat32.fromIntWrap(Nat8.toNat(x))), Nat8.toNat64(x), Nat8.fromNat64(Nat64.fromIntWrap(Nat8.toNat(x)))));
};
show("range", debug_show (Iter.toArray(Nat8.range(1, 5)), Iter.toArray(Nat8.range(5, 5)), Iter.toArray(Nat8.range(253, 255))));
show("rangeInclusive", debug_show (Iter.toArray(Nat8.rangeInclusive(253, 255)), Iter.toArray(Nat8.rangeInclusive(0, 2)), Iter.toArray(Nat8.rangeInclusive(5, 4))));
let all = Iter.toArray(Nat8.allValues());
show("allValues", debug_show (all.size(), all[0], all[255]));
var n = 0;
for (v in Nat8.rangeInclusive(0, Nat8.maxValue)) { n += 1 };
show("count", debug_show n);
