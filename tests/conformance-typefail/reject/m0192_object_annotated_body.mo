let o = object : { get : () -> Nat } {
  public func get() : Text { "x" };
};
o.get()
