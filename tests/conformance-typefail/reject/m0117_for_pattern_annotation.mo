var n = 0;
for ((k : Text, v) in [(1, 2)].vals()) { n += v };
n
