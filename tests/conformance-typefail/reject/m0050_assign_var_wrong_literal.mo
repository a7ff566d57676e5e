var total = 0;
for (x in [1, 2, 3].vals()) { total += x };
total := "done";
total
