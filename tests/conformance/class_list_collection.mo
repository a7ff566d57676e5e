import Debug "mo:core/Debug";
import List "mo:core/List";
import Nat "mo:core/Nat";
class TodoList() {
  let items = List.empty<(Nat, Text, Bool)>();
  var nextId = 0;
  public func add(t : Text) : Nat {
    let id = nextId;
    List.add(items, (id, t, false));
    nextId += 1;
    id
  };
  public func done(id : Nat) {
    List.put(items, id, (id, List.at(items, id).1, true));
  };
  public func open() : [Text] {
    List.toArray(List.filterMap<(Nat, Text, Bool), Text>(items, func((_, t, d)) = if d null else ?t))
  };
};
let todo = TodoList();
ignore todo.add("write");
let t = todo.add("test");
ignore todo.add("ship");
todo.done(t);
Debug.print(debug_show todo.open());
