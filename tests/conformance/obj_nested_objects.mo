// objects inside objects: an inner object's `public var` changed through the outer one
import Debug "mo:core/Debug";

object shop {
  public object cart {
    public var items = 0;
    public var total = 0;
    public func add(price : Nat) { items += 1; total += price };
  };
  public var name = "corner";
  public func summary() : Text { name # ": " # debug_show cart.items # " items, " # debug_show cart.total };
};

shop.cart.add(5);
shop.cart.add(7);
shop.cart.total -= 2;
shop.name := "market";
Debug.print(shop.summary());
shop.cart.items := 0;
Debug.print(debug_show (shop.cart.items, shop.cart.total));
