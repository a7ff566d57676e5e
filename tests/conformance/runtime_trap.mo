import Debug "mo:core/Debug";
import Runtime "mo:core/Runtime";
Debug.print("about to trap");
Runtime.trap("boom");
