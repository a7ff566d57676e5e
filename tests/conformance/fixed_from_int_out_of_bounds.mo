import Debug "mo:core/Debug";
import Int16 "mo:core/Int16";
Debug.print(debug_show (Int16.fromInt(-32769)));
