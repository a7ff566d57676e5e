var count = 0;
var count = 1;
count
