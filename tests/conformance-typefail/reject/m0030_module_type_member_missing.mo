module Shapes {
  public type Square = { side : Nat };
};
let s : Shapes.Circle = { radius = 1 };
s
