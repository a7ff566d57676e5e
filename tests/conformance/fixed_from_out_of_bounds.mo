// Each fixed-width conversion out of range traps in moc's prelude; the first ends the run,
// so the in-range conversions before it are printed and the last line is Nat64's trap.
import Debug "mo:core/Debug";
import Nat8 "mo:core/Nat8";
import Nat16 "mo:core/Nat16";
import Int8 "mo:core/Int8";
import Int64 "mo:core/Int64";
import Nat64 "mo:core/Nat64";
Debug.print(debug_show (Nat8.fromNat(255), Nat16.fromNat(65535), Int8.fromInt(-128), Int64.fromInt(-9223372036854775808)));
Debug.print(debug_show (Nat64.fromNat(18446744073709551616)));
