var s = 0;
let o : ?Nat = ?5;
for (x in o) { s += x };
s
