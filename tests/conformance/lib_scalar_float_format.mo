// mo:core/Float.format: `#fix`, `#exp`, `#gen` and `#exact` as moc's interpreter prints them
// (OCaml's printf run by js_of_ocaml on JavaScript's toFixed/toExponential): halfway cases
// rounded up, `%g`'s choice of notation, numbers from 1e21 up under `#fix`, NaN, infinities,
// signed zeros, subnormals.
import Float "mo:core/Float";
import Nat8 "mo:core/Nat8";
import Debug "mo:core/Debug";
let nan = 0.0 / 0.0;
let values : [Float] = [
  0.0, -0.0, 0.5, 2.5, -2.5, 1.25, 0.125, 9.5, 99.5, 0.05, 3.141592653589793, -2.718281828459045,
  123456.0, 1234567.0, 999999.5, 0.0001, 0.00001, 0.000099999, 1e-7, 1e-274, 9.99e20, 1e21, 1.5e21,
  123456789012345678901234567.0, 1.7976931348623157e308, 2.2250738585072014e-308, 5e-324, 1e300,
  1e26, 1e29, 1e126, nan, Float.copySign(nan, -1.0), 1.0 / 0.0, -1.0 / 0.0,
];
for (x in values.vals()) {
  var line = debug_show x # ":";
  for (p in [0, 1, 3, 17].vals()) {
    let prec = Nat8.fromNat(p);
    line #= " " # Float.format(x, #fix prec) # " " # Float.format(x, #exp prec) # " " # Float.format(x, #gen prec);
  };
  Debug.print(line # " " # Float.format(x, #exact));
};
Debug.print(Float.format(0.1, #fix 100));
Debug.print(Float.format(1e300, #fix 120));
Debug.print(Float.format(1e-10, #gen 101));
Debug.print(Float.format(1e-300, #exp 100));
Debug.print((1.0 / 3.0).format(#gen 25));
