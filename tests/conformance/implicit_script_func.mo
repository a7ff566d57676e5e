// implicit arguments: the value named `compare` in scope wins when its type fits, else a
// module's `compare`; among several modules' the one of the most general type
import Debug "mo:core/Debug";
import Nat "mo:core/Nat";
import Int "mo:core/Int";
import Text "mo:core/Text";
import Order "mo:core/Order";
func max<T>(a : T, b : T, compare : (implicit : (T, T) -> Order.Order)) : T {
  switch (compare(a, b)) { case (#less) b; case _ a }
};
func byLength(a : Text, b : Text) : Order.Order = Nat.compare(a.size(), b.size());
Debug.print(debug_show (max(3, 5)));
Debug.print(debug_show (max(-3, -5)));
Debug.print(max("pear", "fig"));
do {
  let compare = byLength;
  Debug.print(max("pear", "fig"));
  Debug.print(debug_show (max(10, 2)));
};
func show<T>(x : T, toText : (implicit : T -> Text)) : Text = "<" # toText(x) # ">";
Debug.print(show(7));
Debug.print(show(-7 : Int));
Debug.print(show("x"));
