// mo:core/Float: arithmetic, comparison, the inverse trigonometric functions (V8's fdlibm bits),
// the Int64 conversions, and which NaN each gives.
import Float "mo:core/Float";
import Int64 "mo:core/Int64";
import Debug "mo:core/Debug";
func show(what : Text, t : Text) { Debug.print(what # " " # t) };
let nan = 0.0 / 0.0;
let nnan = Float.copySign(nan, -1.0);
let dnan = Float.log(-1.0);
let inf = 1.0 / 0.0;
show("arith", debug_show (Float.add(1.5, 2.25), Float.sub(1.0, 3.5), Float.mul(-2.0, 0.0), Float.div(1.0, -0.0), Float.rem(7.5, 2.0), Float.rem(-7.5, 2.0), Float.neg(0.0), Float.neg(-3.0)));
show("nanarith", debug_show (Float.add(nnan, nan), Float.sub(inf, inf), Float.mul(nnan, 2.0), Float.div(0.0, 0.0), Float.rem(nnan, 1.0), Float.neg(nan), Float.neg(nnan)));
show("copySign", debug_show (Float.copySign(3.0, -0.0), Float.copySign(-3.0, 1.0), Float.copySign(nnan, 1.0), Float.copySign(1.0, nnan), Float.copySign(dnan, -1.0)));
show("cmp", debug_show (Float.less(1.0, 2.0), Float.less(nan, nan), Float.lessOrEqual(-0.0, 0.0), Float.greater(inf, 1e308), Float.greaterOrEqual(nan, 1.0), Float.greater(1.0, nnan)));
for (x in [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 0.999_999, 1e-10, 0.3, -0.7, 2.0, -2.0, inf, -inf, nan, nnan, dnan].vals()) {
  show("inv", debug_show (x, Float.arcsin(x), Float.arccos(x), Float.arctan(x), Float.tan(x), Float.exp(x)));
};
var x = 0.001;
while (x < 1000.0) {
  show("trig", debug_show (Float.arctan(x), Float.arctan2(x, 1.5), Float.arctan2(-1.5, x), Float.tan(x), Float.exp(x / 10.0), Float.arcsin(1.0 / (1.0 + x)), Float.arccos(-1.0 / (1.0 + x))));
  x := x * 1.37;
};
for (y in [0.0, -0.0, 1.0, -1.0, inf, -inf, nan].vals()) {
  show("atan2", debug_show (Float.arctan2(y, 0.0), Float.arctan2(y, -0.0), Float.arctan2(y, inf), Float.arctan2(y, -inf), Float.arctan2(y, nnan), Float.arctan2(nnan, y)));
};
show("toInt64", debug_show (Float.toInt64(-5.7), Float.toInt64(5.7), Float.toInt64(-0.0), Float.toInt64(9_223_372_036_854_774_784.0), Float.toInt64(-9_223_372_036_854_775_808.0)));
let i64s : [Int64] = [0, -1, 9_007_199_254_740_993, -9_007_199_254_740_993, 9_223_372_036_854_775_807, -9_223_372_036_854_775_808, 4_611_686_018_427_388_417, 4_611_686_018_427_388_416, 123_456_789_012_345_678];
for (i in i64s.vals()) { show("fromInt64", debug_show (Float.fromInt64(i))) };
show("format", debug_show (Float.format(3.14159, #fix 2), Float.format(-3.14159, #exp 3), Float.format(1234567.0, #gen 3), Float.format(0.1, #exact), Float.format(nnan, #fix 2), Float.format(-inf, #exp 1)));
show("dot", debug_show ((2.5).format(#fix 0), (0.5).toInt64()));
