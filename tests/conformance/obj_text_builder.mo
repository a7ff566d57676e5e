// a text builder object with chained appends and a line count kept in a public var
import Debug "mo:core/Debug";

object builder {
  var buf = "";
  public var lines = 0;
  public func line(t : Text) { buf #= t # "\n"; lines += 1 };
  public func indent(n : Nat, t : Text) {
    var pad = "";
    for (_ in Iter_range(n)) { pad #= "  " };
    line(pad # t)
  };
  func Iter_range(n : Nat) : { next : () -> ?Nat } {
    var i = 0;
    object { public func next() : ?Nat { if (i >= n) null else { i += 1; ?i } } }
  };
  public func text() : Text { buf };
};

builder.line("root");
builder.indent(1, "child");
builder.indent(2, "grandchild");
Debug.print(builder.text());
Debug.print(debug_show builder.lines);
