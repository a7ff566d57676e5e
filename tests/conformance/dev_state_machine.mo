// a state machine object with a public var state and transitions by pattern matching
import Debug "mo:core/Debug";

type State = { #idle; #running : Nat; #paused : Nat; #stopped : Text };
type Event = { #start; #tick; #pause; #resume; #stop : Text };

object machine {
  public var state : State = #idle;
  public var log : [State] = [];
  public func send(e : Event) {
    state := switch (state, e) {
      case (#idle, #start) #running 0;
      case (#running n, #tick) #running(n + 1);
      case (#running n, #pause) #paused n;
      case (#paused n, #resume) #running n;
      case (_, #stop why) #stopped why;
      case (s, _) s;
    };
  };
};

for (e in [#start, #tick, #tick, #pause, #tick, #resume, #tick, #stop "done", #start].vals()) {
  machine.send(e);
  Debug.print(debug_show machine.state);
};
machine.state := #idle;
machine.send(#tick);
Debug.print(debug_show machine.state);
