import Debug "mo:core/Debug";
import Float "mo:core/Float";
Debug.print(Float.toText(1.5));
Debug.print(Float.toText(0.1));
Debug.print(Float.toText(1e20));
Debug.print(Float.toText(-2.0));
Debug.print(Float.toText(1234567.25));
