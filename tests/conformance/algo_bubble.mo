import Debug "mo:core/Debug";
let a = [var 5, 2, 9, 1, 7];
var i = 0;
while (i < a.size()) { var j = 0; while (j + 1 < a.size() - i) { if (a[j] > a[j + 1]) { let t = a[j]; a[j] := a[j + 1]; a[j + 1] := t }; j += 1 }; i += 1 };
Debug.print(debug_show a);
