import Debug "mo:core/Debug";
import Float "mo:core/Float";
Debug.print(debug_show (Float.sin(0.0)));
Debug.print(debug_show (Float.cos(0.0)));
Debug.print(debug_show (Float.exp(1.0)));
Debug.print(debug_show (Float.log(1.0)));
