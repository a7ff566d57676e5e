// anonymous `module` and `object` expressions bound with `let`
import Debug "mo:core/Debug";

let Geo = module {
  public func dist(a : (Int, Int), b : (Int, Int)) : Nat {
    let dx = a.0 - b.0;
    let dy = a.1 - b.1;
    (if (dx < 0) -dx else dx) + (if (dy < 0) -dy else dy) |> toNat(_)
  };
  func toNat(i : Int) : Nat { var n = 0; var k = i; while (k > 0) { n += 1; k -= 1 }; n };
};

let origin = object { public let x = 0; public let y = 0 };
Debug.print(debug_show Geo.dist((origin.x, origin.y), (3, -4)));
