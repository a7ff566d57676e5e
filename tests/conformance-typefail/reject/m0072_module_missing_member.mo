module Util {
  public func inc(x : Nat) : Nat { x + 1 };
};
Util.dec(3)
