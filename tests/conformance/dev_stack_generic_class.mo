// a generic class over a mo:core List, used at two types
import Debug "mo:core/Debug";
import List "mo:core/List";

class Stack<T>() {
  let items = List.empty<T>();
  public func push(x : T) { List.add(items, x) };
  public func pop() : ?T { List.removeLast(items) };
  public func size() : Nat { List.size(items) };
  public func peek() : ?T {
    let n = List.size(items);
    if (n == 0) null else List.get(items, n - 1)
  };
};

let s = Stack<Nat>();
for (i in [3, 1, 4, 1, 5].vals()) { s.push(i) };
Debug.print(debug_show (s.size(), s.peek(), s.pop(), s.pop(), s.size()));
let t = Stack<Text>();
t.push("x");
Debug.print(debug_show (t.pop(), t.pop(), t.size()));
