// contextual dot through the script's own functions and modules; the most specific `self`
// type wins when several modules fit
import Debug "mo:core/Debug";
import Nat "mo:core/Nat";
type Rect = { w : Nat; h : Nat };
type Square = { w : Nat; h : Nat; side : Nat };
module Shapes {
  public func area(self : Rect) : Nat = self.w * self.h;
  public func describe(self : Rect) : Text = "rect " # debug_show (self.w, self.h);
};
module Squares {
  public func describe(self : Square) : Text = "square " # Nat.toText(self.side);
};
func double(self : Nat) : Nat = self * 2;
func tagged(self : Text, n : Nat) : Text = self # "#" # Nat.toText(n);
let r : Rect = { w = 2; h = 3 };
let s : Square = { w = 4; h = 4; side = 4 };
Debug.print(debug_show (r.area(), s.area()));
Debug.print(r.describe());
Debug.print(s.describe());
Debug.print(debug_show ((21).double(), r.area().double()));
Debug.print("item".tagged(3));
