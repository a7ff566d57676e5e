let n = 5;
if (n) { "yes" } else { "no" }
