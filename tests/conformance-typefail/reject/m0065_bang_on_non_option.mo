let n = 3;
do ? { n! + 1 }
