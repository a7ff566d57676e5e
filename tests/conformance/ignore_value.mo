import Debug "mo:core/Debug";
ignore 5;
ignore "x";
Debug.print("ok");
