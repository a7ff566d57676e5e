// mo:core/Char comparisons, Bool logic and allValues, Order.allValues.
import Char "mo:core/Char";
import Bool "mo:core/Bool";
import Order "mo:core/Order";
import Iter "mo:core/Iter";
import Debug "mo:core/Debug";
func show(what : Text, t : Text) { Debug.print(what # " " # t) };
show("char", debug_show (Char.less('a', 'b'), Char.lessOrEqual('b', 'b'), Char.greater('a', 'b'), Char.greaterOrEqual('c', 'b'), Char.notEqual('a', 'a'), Char.notEqual('a', 'b')));
show("bool", debug_show (Bool.logicalAnd(true, false), Bool.logicalOr(true, false), Bool.logicalXor(true, true), Bool.logicalXor(false, true), Bool.logicalNot(false)));
show("boolAll", debug_show (Iter.toArray(Bool.allValues())));
show("orderAll", debug_show (Iter.toArray(Order.allValues())));
show("dot", debug_show (true.logicalXor(false), (false).logicalNot()));
for (o in Order.allValues()) {
  for (b in Bool.allValues()) { show(debug_show (o, b), debug_show (Order.isLess(o) or b, 'x'.less('y'))) };
};
