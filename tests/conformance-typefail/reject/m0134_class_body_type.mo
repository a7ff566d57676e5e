type Getter = { get : () -> Nat };
class Box(v : Nat) : Getter {
  public func get() : Text { debug_show v };
};
Box(1).get()
