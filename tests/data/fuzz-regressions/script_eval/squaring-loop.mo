var x = 3; loop { x := x * x }
