import Debug "mo:core/Debug";
Debug.print("only");
