import Debug "mo:core/Debug";
func hello() { Debug.print("hello") };
hello();
let r = hello();
Debug.print(debug_show r);
