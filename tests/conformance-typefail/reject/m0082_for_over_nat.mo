var s = 0;
for (i in 10) { s += i };
s
