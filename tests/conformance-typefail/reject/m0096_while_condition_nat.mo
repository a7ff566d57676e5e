var i = 3;
while (i) { i -= 1 };
i
