let o : { get : () -> Nat } = object {
  public func get() : Text { "x" };
};
o
