import Debug "mo:core/Debug";
import Bool "mo:core/Bool";
Debug.print(debug_show (true and false));
Debug.print(debug_show (true or false));
Debug.print(debug_show (not true));
Debug.print(debug_show (true == false));
Debug.print(debug_show (true != false));
Debug.print(debug_show (Bool.toText(true)));
