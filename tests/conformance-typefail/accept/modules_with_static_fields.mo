import Debug "mo:core/Debug";
module M {
  public let xs = [1, 2];
  public let r = { a = 1 };
  public let t = "x";
  public let neg = -1;
  public func f(x : Nat) : Nat { x };
  public let g = f;
  public type T = Nat;
  public class C() { public let v = 1 };
};
let v : M.T = 3;
Debug.print(debug_show (M.xs, M.r, M.t, M.neg, M.g(2), v, M.C().v))
