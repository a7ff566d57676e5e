let n = 5;
n(1)
