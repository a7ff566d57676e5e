// `do ? { }` with `!` to chain lookups that may fail, as in config parsing
import Debug "mo:core/Debug";
import Nat "mo:core/Nat";

type Config = { host : ?Text; port : ?Text; retries : ?Nat };

func address(c : Config) : ?Text {
  do ? {
    let h = c.host!;
    let p = Nat.fromText(c.port!)!;
    h # ":" # debug_show p
  }
};

func budget(c : Config) : ?Nat = do ? { c.retries! * 100 };

let good = { host = ?"localhost"; port = ?"8080"; retries = ?3 };
let noPort = { host = ?"example"; port = null; retries = null };
let badPort = { host = ?"x"; port = ?"80a"; retries = ?0 };
for (c in [good, noPort, badPort].vals()) {
  Debug.print(debug_show (address(c), budget(c)));
};
