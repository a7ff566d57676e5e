import Debug "mo:core/Debug";
let words = ["alpha", "be", "gamma"];
var longest = "";
for (w in words.vals()) { if (w.size() > longest.size()) longest := w };
Debug.print(longest);
