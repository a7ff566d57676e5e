import Debug "mo:core/Debug";
import Array "mo:core/Array";
type Item = { id : Nat; tags : [Text]; owner : ?Text };
class Catalog() {
  var items : [Item] = [];
  public func add(i : Item) { items := Array.concat(items, [i]) };
  public func contains(i : Item) : Bool {
    for (j in items.vals()) { if (j == i) return true };
    false
  };
  public func count() : Nat = items.size();
};
let c = Catalog();
c.add({ id = 1; tags = ["a", "b"]; owner = null });
c.add({ id = 2; tags = []; owner = ?"zed" });
Debug.print(debug_show (c.contains({ id = 2; tags = []; owner = ?"zed" }), c.contains({ id = 2; tags = []; owner = null }), c.count()));
