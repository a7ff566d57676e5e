let a : Any = 5;
let b : Any = "text";
ignore (a, b);
let flag = true;
let r = if flag ({ name = "x"; n = 1 }) else ({ name = "y"; m = 2 });
r.name
