import Debug "mo:core/Debug";
var i = 0;
var odd = 0;
label l while (i < 10) { i += 1; if (i % 2 == 0) continue l; odd += i };
Debug.print(debug_show odd);
