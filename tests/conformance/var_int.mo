import Debug "mo:core/Debug";
var x : Int = 0;
x -= 5;
x += 2;
Debug.print(debug_show x);
