var total = 0;
for (x in [1, 2].vals()) {
  x := x + 1;
  total += x;
};
total
