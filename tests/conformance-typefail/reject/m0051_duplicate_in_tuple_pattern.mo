let (a, a) = (1, 2);
a
