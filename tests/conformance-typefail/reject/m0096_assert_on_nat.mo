let n = 3;
assert n;
n
