// M0137 is at the declaration, from `type` to the end of its body.
class Box<T>(v : T) {
    type Inner = { value : T; count : Nat };
  public func get() : T { v };
};
