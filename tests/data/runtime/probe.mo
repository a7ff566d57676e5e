// Test canister for the runtime's own tests (tests/runtime.rs).
import Debug "mo:core/Debug";
import Float "mo:core/Float";
import Principal "mo:core/Principal";
import Prim "mo:⛔";

persistent actor Probe {
  var counter : Nat = 0;
  var log : [Text] = [];
  transient var scratch : Nat = 0;

  public func inc(by : Nat) : async Nat {
    counter += by;
    counter
  };

  public func note(t : Text) : async () {
    log := Prim.Array_tabulate<Text>(log.size() + 1, func i = if (i < log.size()) log[i] else t);
  };

  public query func get() : async Nat { counter };

  public query func bump_in_query() : async Nat {
    counter += 1000;
    counter
  };

  public query func grow_in_query(n : Nat) : async Nat {
    let a = Prim.Array_init<Nat>(n, counter);
    counter += a.size();
    a.size()
  };

  public query func echo_(n : Nat, i : Int, t : Text, b : Bool, x : Nat64) : async (Nat, Int, Text, Bool, Nat64) {
    (n, i, t, b, x)
  };

  public query func whoami() : async (Principal, Principal) {
    (Prim.principalOfActor(Probe), Principal.fromActor(Probe))
  };

  public func boom(msg : Text) : async () {
    Debug.print("about to trap");
    counter += 1;
    Prim.trap(msg);
  };

  public func spin() : async () {
    var i = 0;
    while (true) { i += 1 };
  };

  // Float results whose NaNs the IC canonicalizes (arithmetic, the RTS's libm) and keeps (sign
  // operations): tests/it/runtime.rs reads their bits.
  public query func floats(x : Float, y : Float) : async [Float] {
    [x / y, x + y, Float.sqrt(x), Float.sin(x), x ** y, Float.floor(x), -x, Float.abs(x), x]
  };

  public query func dump() : async [(Text, Text)] {
    [("counter", debug_show counter), ("log", debug_show log)]
  };
};
