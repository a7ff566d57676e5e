// `public var` Text and Nat fields updated with compound assignments from outside
import Debug "mo:core/Debug";
object log { public var text = ""; public var count = 0; public func add(t : Text) { text #= t; count += 1 } };
log.add("a");
log.text #= "-";
log.count *= 10;
log.add("b");
log.count -= 3;
Debug.print(debug_show (log.text, log.count));
