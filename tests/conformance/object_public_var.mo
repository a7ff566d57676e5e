// `public var` fields: read and assigned from outside, shared with the object's methods
import Debug "mo:core/Debug";

object counter {
  public var count = 0;
  public var tag = "clicks";
  public func inc() { count += 1 };
  public func describe() : Text { tag # ": " # debug_show count };
};

counter.inc();
counter.inc();
Debug.print(counter.describe());
counter.count := 10;
counter.inc();
Debug.print(debug_show counter.count);
counter.tag := "taps";
counter.count -= 4;
Debug.print(counter.describe());
counter.tag #= "!";
Debug.print(counter.tag);
Debug.print(debug_show (counter.count, counter.tag));
