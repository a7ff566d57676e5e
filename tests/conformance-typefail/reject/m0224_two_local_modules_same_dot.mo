module A {
  public func describe(self : Nat) : Text { "A" };
};
module B {
  public func describe(self : Nat) : Text { "B" };
};
let n : Nat = 1;
n.describe()
