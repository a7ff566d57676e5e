let (a, b) = 5;
a
