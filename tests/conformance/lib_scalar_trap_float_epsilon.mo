// Float.equal with a NaN epsilon: core's Prim.trap.
import Float "mo:core/Float";
import Debug "mo:core/Debug";
Debug.print(debug_show (Float.equal(1.0, 1.05, 0.1), Float.notEqual(1.0, 1.05, 0.01)));
Debug.print(debug_show (Float.equal(1.0, 1.0, 0.0 / 0.0)));
