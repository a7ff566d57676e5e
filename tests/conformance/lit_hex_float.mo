import Debug "mo:core/Debug";
let a = 0x644.;
let b = 0x644.5P-1;
let c = 0x1p4;
let e : Float = 0xA.8;
Debug.print(debug_show (a, b, c, e));
Debug.print(debug_show (0x1P-2 + 0x2p0));
