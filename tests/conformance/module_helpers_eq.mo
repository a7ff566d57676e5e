import Debug "mo:core/Debug";
import Array "mo:core/Array";
module Geo {
  public type Point = { x : Int; y : Int };
  public func origin() : Point = { x = 0; y = 0 };
  public func add(a : Point, b : Point) : Point = { x = a.x + b.x; y = a.y + b.y };
  public func same(a : Point, b : Point) : Bool = a == b;
};
let p = Geo.add({ x = 1; y = 2 }, { x = -1; y = -2 });
Debug.print(debug_show (Geo.same(p, Geo.origin()), Geo.same(p, { x = 0; y = 1 })));
let pts : [Geo.Point] = [{ x = 1; y = 1 }, { x = 2; y = 2 }];
let found = Array.find<Geo.Point>(pts, func q = q == { x = 2; y = 2 });
Debug.print(debug_show found);
