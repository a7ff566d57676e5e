// a generic class with two type parameters and a method returning a swapped instance
import Debug "mo:core/Debug";

class Pair<A, B>(a : A, b : B) {
  public var first = a;
  public var second = b;
  public func swap() : Pair<B, A> { Pair<B, A>(second, first) };
  public func toTuple() : (A, B) { (first, second) };
};

let p = Pair<Nat, Text>(1, "one");
let q = p.swap();
p.first := 2;
Debug.print(debug_show (p.toTuple(), q.toTuple()));
let r = Pair<Int, ?Nat>(-1, null);
r.second := ?4;
Debug.print(debug_show r.toTuple());
