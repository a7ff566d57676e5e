import Debug "mo:core/Debug";
var calls = 0;
func f() : Nat { calls += 1; calls };
ignore f();
ignore f();
Debug.print(debug_show calls);
