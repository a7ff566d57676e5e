let n = 5;
n.0
