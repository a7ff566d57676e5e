let total = 10;
let average = totl / 2;
average
