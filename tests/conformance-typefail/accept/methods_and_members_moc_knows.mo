import Debug "mo:core/Debug";
import Array "mo:core/Array";
import Nat "mo:core/Nat";
let xs = [3, 1, 2];
let t = "abc";
module Util { public func inc(x : Nat) : Nat { x + 1 } };
class Counter() { var n = 0; public func inc() : Nat { n += 1; n } };
let c = Counter();
ignore c.inc();
Debug.print(debug_show (xs.size(), xs.sort(), t.size(), (5).toText(), Util.inc(1), c.inc(), t.chars().next()))
