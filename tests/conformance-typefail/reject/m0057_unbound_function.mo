let xs = [1, 2, 3];
var sum = 0;
for (x in xs.vals()) { sum += sqare(x) };
sum
