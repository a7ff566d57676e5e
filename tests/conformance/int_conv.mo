import Debug "mo:core/Debug";
import Int "mo:core/Int";
Debug.print(debug_show (Int.toText(-12345)));
Debug.print(debug_show (Int.toText(7)));
Debug.print(debug_show (Int.abs(-5)));
Debug.print(debug_show (Int.neg(5)));
Debug.print(debug_show (Int.compare(3, 1)));
Debug.print(debug_show (Int.fromText("-17")));
