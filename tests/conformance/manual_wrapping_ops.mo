// Manual, "Numbers": wrapping operators of every width and bitwise operators.
import Debug "mo:core/Debug";
let a8 : Nat8 = 250; let b8 : Nat8 = 10;
Debug.print(debug_show (a8 +% b8, b8 -% a8, a8 *% b8, a8 **% 2));
let a16 : Int16 = 32_000; let b16 : Int16 = 1_000;
Debug.print(debug_show (a16 +% b16, -a16 -% b16, a16 *% 3));
let x32 : Nat32 = 0xF0F0_F0F0;
Debug.print(debug_show (x32 & 0xFF, x32 | 0xF, x32 ^ 0xFFFF_FFFF, x32 << 4, x32 >> 8, x32 <<> 4, x32 <>> 4));
let i64 : Int64 = -9_223_372_036_854_775_807;
Debug.print(debug_show (i64 -% 2, i64 +% -2));
let n64 : Nat64 = 18_446_744_073_709_551_615;
Debug.print(debug_show (n64 +% 1, n64 *% 2));
let i8 : Int8 = -128;
Debug.print(debug_show (i8 >> 1, (-1 : Int8) << 7));
