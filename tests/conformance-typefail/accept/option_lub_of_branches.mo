import Debug "mo:core/Debug";
func pick(b : Bool) : ?Int {
  if b ?(-1) else null
};
Debug.print(debug_show (pick(true), pick(false)))
