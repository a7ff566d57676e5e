let n = 5;
not n
