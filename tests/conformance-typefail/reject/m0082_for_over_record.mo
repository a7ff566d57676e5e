let r = { a = 1; b = 2 };
for (x in r) { ignore x };
0
