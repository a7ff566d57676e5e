// `**%` of fixed-width numbers with exponents beyond 32 bits (square-and-multiply over the
// whole exponent); `**` takes at most 2^31 - 1 in moc's interpreter (the last line).
import Debug "mo:core/Debug";
import Nat64 "mo:core/Nat64";
Debug.print(debug_show ((3 : Nat64) **% 18_446_744_073_709_551_615, (3 : Int64) **% 9_223_372_036_854_775_807, (7 : Nat32) **% 4_294_967_295));
Debug.print(debug_show ((-3 : Int64) **% 9_223_372_036_854_775_806, (-1 : Int8) **% 127, (5 : Nat8) **% 255, (2 : Nat16) **% 65_535));
Debug.print(debug_show (Nat64.powWrap(3, 18_446_744_073_709_551_615), (1 : Nat64) ** 65_536, (-1 : Int64) ** 65_535));
Debug.print(debug_show ((1 : Nat64) ** 2_147_483_648));
