var n = 0;
for (c in "abc") { n += 1 };
n
