var s = 0;
for (x in [1, 2, 3]) { s += x };
s
