// a module doing breadth-first search over an adjacency array
import Debug "mo:core/Debug";
import VarArray "mo:core/VarArray";
module Graph {
  public func bfs(adj : [[Nat]], start : Nat) : [Nat] {
    let seen = VarArray.repeat<Bool>(false, adj.size());
    var queue : [Nat] = [start];
    var order : [Nat] = [];
    seen[start] := true;
    var head = 0;
    var q = VarArray.repeat<Nat>(0, adj.size());
    q[0] := start;
    var tail = 1;
    while (head < tail) {
      let v = q[head];
      head += 1;
      order := VarArray.toArray(VarArray.tabulate<Nat>(order.size() + 1, func i = if (i < order.size()) order[i] else v));
      for (w in adj[v].vals()) { if (not seen[w]) { seen[w] := true; q[tail] := w; tail += 1 } };
    };
    order
  };
};
Debug.print(debug_show Graph.bfs([[1, 2], [3], [3, 4], [], [0]], 0));
