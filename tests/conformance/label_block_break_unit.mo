import Debug "mo:core/Debug";
label done { Debug.print("in"); if (true) break done; Debug.print("not here") };
Debug.print("out");
