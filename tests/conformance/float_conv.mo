import Debug "mo:core/Debug";
import Float "mo:core/Float";
Debug.print(debug_show (Float.fromInt(42)));
Debug.print(debug_show (Float.toInt(3.99)));
Debug.print(debug_show (Float.toInt(-3.99)));
Debug.print(debug_show (Float.min(1.0, 2.0)));
Debug.print(debug_show (Float.max(1.0, 2.0)));
