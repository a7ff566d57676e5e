let acc = object {
  public let name = "a";
  public func total() : Nat { 1 };
};
debug_show acc
