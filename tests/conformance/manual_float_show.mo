// Float rendering and conversions.
import Debug "mo:core/Debug";
import Float "mo:core/Float";
Debug.print(debug_show (1.0, 0.5, 100.0, 1e21, 1e-7, -0.0, 3.141_592_653_589_793));
Debug.print(debug_show (Float.fromInt(-3), Float.toInt(2.9), Float.toInt(-2.9)));
Debug.print(debug_show (Float.floor(-1.5), Float.ceil(-1.5), Float.nearest(2.5), Float.trunc(-2.7)));
Debug.print(debug_show (1.0 / 3.0, 2.0 ** 0.5, 10.0 % 3.0));
