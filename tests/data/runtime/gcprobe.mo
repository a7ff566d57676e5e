// GC probe for the runtime's on-demand experiment (tests/runtime_gc_phase.rs): allocates live
// data and garbage so the incremental GC runs across messages.
import Prim "mo:⛔";

persistent actor GcProbe {
  var live : [var [Nat]] = [var];
  var round : Nat = 0;

  // Grows the live set by `n` small arrays.
  public func fill(n : Nat) : async Nat {
    let old = live;
    live := Prim.Array_init<[Nat]>(old.size() + n, []);
    var i = 0;
    while (i < old.size()) { live[i] := old[i]; i += 1 };
    while (i < live.size()) { live[i] := [i, i + 1, round]; i += 1 };
    live.size()
  };

  // Replaces every `k`-th array by a fresh one: the old ones become garbage.
  public func churn(k : Nat) : async () {
    round += 1;
    var i = round % k;
    while (i < live.size()) { live[i] := [i, round, i * round]; i += k };
  };

  public query func dump() : async [(Text, Text)] {
    [("round", debug_show round), ("size", debug_show live.size())]
  };
};
