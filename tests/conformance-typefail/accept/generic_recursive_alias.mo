import Debug "mo:core/Debug";
type List<T> = ?(T, List<T>);
func len<T>(l : List<T>) : Nat {
  var n = 0;
  var cur = l;
  loop {
    switch cur {
      case null { return n };
      case (?(_, rest)) { n += 1; cur := rest };
    }
  }
};
let l : List<Text> = ?("a", ?("b", null));
let e : List<Nat> = null;
Debug.print(debug_show ((len(l), len(e))))
