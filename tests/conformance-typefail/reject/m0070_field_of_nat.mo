let n = 5;
n.value
