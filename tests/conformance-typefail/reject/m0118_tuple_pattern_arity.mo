let (a, b, c) = (1, 2);
a
