// A NaN operand is passed on with its sign (the first one of two).
import Debug "mo:core/Debug";
import Float "mo:core/Float";
let nan = 0.0 / 0.0;
let mnan = -nan;
Debug.print(debug_show (nan, mnan, Float.abs(mnan), -mnan));
Debug.print(debug_show (mnan * 2.0, mnan + 1.0, 1.0 - mnan, mnan / 1.0, Float.sqrt(mnan), mnan % 2.0, mnan ** 2.0));
Debug.print(debug_show (nan + mnan, mnan + nan, nan * mnan, mnan - nan, mnan / nan, nan / mnan));
Debug.print(debug_show (Float.cos(mnan), Float.exp(mnan), Float.log(nan), Float.floor(mnan), Float.ceil(mnan), Float.trunc(mnan), Float.nearest(mnan)));
Debug.print(debug_show (Float.pow(mnan, 1.0), Float.pow(1.0, mnan), Float.pow(mnan, 0.0), mnan ** 0.0, 0.0 % mnan, mnan % 0.0));
Debug.print(debug_show (nan % mnan, mnan % nan, Float.log(-1.0) % mnan, mnan % Float.log(-1.0), nan ** mnan, mnan ** nan));
