import Debug "mo:core/Debug";
import Option "mo:core/Option";
Debug.print(debug_show (Option.unwrap(?3)));
let n : ?Nat = null;
ignore Option.unwrap(n);
