import Debug "mo:core/Debug";
assert (1 + 1 == 2);
Debug.print("passed");
