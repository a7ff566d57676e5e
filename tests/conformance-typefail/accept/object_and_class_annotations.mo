import Debug "mo:core/Debug";
type Getter = { get : () -> Nat };
class Box(v : Nat) : Getter {
  public func get() : Nat { v };
};
let o = object : { get : () -> Nat } {
  public func get() : Nat { 7 };
};
Debug.print(debug_show (Box(3).get(), o.get()))
