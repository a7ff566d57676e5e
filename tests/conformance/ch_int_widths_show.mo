// debug_show of every fixed width at its bounds.
import Debug "mo:core/Debug";
Debug.print(debug_show (255 : Nat8, 65_535 : Nat16, 4_294_967_295 : Nat32, 18_446_744_073_709_551_615 : Nat64));
Debug.print(debug_show (-128 : Int8, 127 : Int8, -32_768 : Int16, -2_147_483_648 : Int32, -9_223_372_036_854_775_808 : Int64));
Debug.print(debug_show (0 : Int8, 0 : Int64, 1 : Int32));
