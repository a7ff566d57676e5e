import Debug "mo:core/Debug";
func firstOr(o : ?Nat, d : Nat) : Nat {
  if (o != null) let ?x = o else return d;
  switch o { case (?x) x; case null d }
};
Debug.print(debug_show (firstOr(null, 9), firstOr(?4, 9)));
let u = (let _ = 1) : ();
Debug.print(debug_show u);
func parse(t : Text) : ?Nat {
  let n = switch t { case "one" 1; case "two" 2; case _ return null };
  ?n
};
Debug.print(debug_show (parse "two", parse "six"));
