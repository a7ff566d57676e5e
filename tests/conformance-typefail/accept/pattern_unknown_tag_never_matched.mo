import Debug "mo:core/Debug";
type Light = { #red; #green };
func go(l : Light) : Bool {
  switch l {
    case (#green) { true };
    case (#amber) { false };
    case (#red) { false };
  }
};
Debug.print(debug_show (go(#red)))
