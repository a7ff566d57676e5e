// variants carrying options of tuples, matched with nested patterns and alternatives
import Debug "mo:core/Debug";
type Msg = { #ping; #data : ?(Nat, Text); #error : { code : Nat; retry : Bool } };
func handle(m : Msg) : Text {
  switch m {
    case (#ping) "pong";
    case (#data null) "empty";
    case (#data(?(0, _))) "zero";
    case (#data(?(n, t))) t # "x" # debug_show n;
    case (#error { code = 404 or 410 }) "gone";
    case (#error { retry = true; code }) "retry " # debug_show code;
    case (#error { code }) "fail " # debug_show code;
  }
};
for (m in [#ping, #data null, #data(?(0, "a")), #data(?(3, "b")), #error { code = 410; retry = true },
  #error { code = 500; retry = true }, #error { code = 501; retry = false }].vals()) {
  Debug.print(handle(m));
};
