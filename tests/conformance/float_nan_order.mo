// Float.min/max order -0 below 0 and pass a NaN on; Float.compare orders NaNs by sign.
import Debug "mo:core/Debug";
import Float "mo:core/Float";
import Array "mo:core/Array";
let nan = 0.0 / 0.0;
let mnan = -nan;
let inf = 1.0 / 0.0;
Debug.print(debug_show (Float.min(1.0, nan), Float.max(nan, 1.0), Float.min(mnan, 1.0), Float.max(1.0, mnan), Float.min(nan, mnan), Float.max(mnan, nan)));
Debug.print(debug_show (Float.min(-0.0, 0.0), Float.min(0.0, -0.0), Float.max(-0.0, 0.0), Float.max(0.0, -0.0), Float.min(2.0, -3.0), Float.max(-inf, inf)));
Debug.print(debug_show (Float.compare(nan, 1.0), Float.compare(1.0, nan), Float.compare(mnan, 1.0), Float.compare(1.0, mnan), Float.compare(nan, inf), Float.compare(-inf, mnan)));
Debug.print(debug_show (Float.compare(nan, nan), Float.compare(mnan, nan), Float.compare(nan, mnan), Float.compare(mnan, mnan), Float.compare(-0.0, 0.0), Float.compare(1.0, 2.0)));
Debug.print(debug_show (Array.sort([3.0, nan, -1.0, mnan, inf, 0.0, -inf], Float.compare)));
Debug.print(debug_show (nan == nan, nan < 1.0, nan >= nan, nan != 1.0, mnan < 1.0));
