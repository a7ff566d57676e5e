module Outer {
  public module Inner {
    public type T = Nat;
  };
};
let x : Outer.Missing.T = 1;
x
