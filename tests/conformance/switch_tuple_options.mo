// switches over tuples of options, the way merging two optional inputs is written
import Debug "mo:core/Debug";
func merge(a : ?Int, b : ?Int) : Text {
  switch (a, b) {
    case (null, null) "none";
    case (?x, null) "left " # debug_show x;
    case (null, ?y) "right " # debug_show y;
    case (?x, ?y) if (x == y) "same" else "both " # debug_show (x + y);
  }
};
for (p in [(null, null), (?1, null), (null, ?(-2)), (?3, ?3), (?3, ?4)].vals()) {
  Debug.print(merge(p.0, p.1));
};
