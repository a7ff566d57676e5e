import Debug "mo:core/Debug";
var i = 0; var c = 0;
label outer while (i < 10) { var j = 0; while (j < 10) { if (i * j > 20) break outer; c += 1; j += 1 }; i += 1 };
Debug.print(debug_show (i, c));
