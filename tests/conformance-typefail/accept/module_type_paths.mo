import Debug "mo:core/Debug";
import Nat "mo:core/Nat";
import Order "mo:core/Order";
module Shapes {
  public type Square = { side : Nat };
  public module Inner { public type Id = Nat };
  public func area(s : Square) : Nat { s.side * s.side };
};
let s : Shapes.Square = { side = 3 };
let i : Shapes.Inner.Id = 7;
let n : Nat.Nat = 2;
let o : Order.Order = Nat.compare(1, 2);
Debug.print(debug_show (Shapes.area(s), i, n, o))
