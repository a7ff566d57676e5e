import Debug "mo:core/Debug";
let a : Any = 5;
let b : Any = "text";
ignore (a, b);
let flag = true;
let r = if flag ({ name = "x"; n = 1 }) else ({ name = "y"; m = 2 });
Debug.print(debug_show (r.name))
