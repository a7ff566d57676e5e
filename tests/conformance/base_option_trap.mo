import Option "mo:base/Option";
import Debug "mo:base/Debug";
// base Option.assertSome of null: base Prelude.unreachable (a Debug.trap)
Option.assertNull(null);
Option.assertSome(?1);
Debug.print("before");
Option.assertSome(null);
