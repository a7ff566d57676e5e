let words = ["a", "bb"];
var n : Nat = 0;
for (w in words.vals()) { n += w };
n
