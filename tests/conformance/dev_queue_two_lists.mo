// a FIFO queue class made of two mo:core Lists (in and out)
import Debug "mo:core/Debug";
import List "mo:core/List";
class Queue<T>() {
  let inbox = List.empty<T>();
  let outbox = List.empty<T>();
  public var served = 0;
  public func put(x : T) { List.add(inbox, x) };
  public func take() : ?T {
    if (List.isEmpty(outbox)) {
      label move loop { switch (List.removeLast(inbox)) { case (?x) List.add(outbox, x); case null break move } };
    };
    let r = List.removeLast(outbox);
    switch r { case (?_) served += 1; case null {} };
    r
  };
};
let q = Queue<Text>();
q.put("a"); q.put("b");
let first = q.take();
q.put("c");
Debug.print(debug_show (first, q.take(), q.take(), q.take(), q.served));
