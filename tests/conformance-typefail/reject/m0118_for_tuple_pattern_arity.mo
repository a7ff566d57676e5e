var n = 0;
for ((a, b, c) in [(1, 2)].vals()) { n += a };
n
