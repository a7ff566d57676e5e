// NaNs made from numbers: the operators and sqrt give the positive canonical NaN; the
// library functions moc's interpreter takes from its JavaScript engine give others.
import Debug "mo:core/Debug";
import Float "mo:core/Float";
let inf = 1.0 / 0.0;
Debug.print(debug_show (0.0 / 0.0, inf - inf, -inf + inf, 0.0 * inf, (-inf) * 0.0, 0.0 / -0.0, Float.sqrt(-1.0), Float.sqrt(-inf)));
Debug.print(debug_show (2.0 % 0.0, (-2.0) % 0.0, inf % 2.0, inf % 0.0, inf % inf, -inf % 2.0, 1.0 % inf, (-0.0) % 1.0, 5.5 % -2.0));
Debug.print(debug_show (Float.sin(inf), Float.cos(-inf), Float.tan(inf), Float.log(-1.0), Float.log(-inf), Float.log(0.0), Float.exp(-inf)));
Debug.print(debug_show (Float.pow(1.0, inf), Float.pow(-1.0, inf), (-1.0) ** (-inf), Float.pow(-8.0, 1.0 / 3.0), (-2.0) ** 0.5, Float.pow(0.0, -1.0), Float.pow(-0.0, -3.0), Float.pow(-inf, 0.5)));
Debug.print(Float.toText(0.0 / 0.0) # " " # Float.toText(Float.log(-1.0)));
Debug.print(debug_show [2.0 % -0.0, -0.0 % 0.0, 1.5 % 0.0, 2147483647.0 % 0.0, 2147483648.0 % 0.0, -2147483648.0 % 0.0, -2147483649.0 % 0.0, 1e300 % 0.0]);
