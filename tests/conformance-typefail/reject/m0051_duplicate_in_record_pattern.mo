let { a = n; b = n } = { a = 1; b = 2 };
n
