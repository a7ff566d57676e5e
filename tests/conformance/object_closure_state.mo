import Debug "mo:core/Debug";
func makeCounter(step : Nat) : { next : () -> Nat; reset : () -> () } {
  var n = 0;
  object {
    public func next() : Nat { n += step; n };
    public func reset() { n := 0 };
  }
};
let c = makeCounter(5);
ignore c.next();
Debug.print(debug_show c.next());
c.reset();
Debug.print(debug_show c.next());
let log = object {
  var lines : [Text] = [];
  public func add(t : Text) { lines := [t] };
  public func last() : ?Text = if (lines.size() == 0) null else ?lines[0];
};
Debug.print(debug_show log.last());
log.add("started");
Debug.print(debug_show log.last());
