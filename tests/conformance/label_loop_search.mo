// nested loops left with labeled `break` carrying a value, and `continue` to the outer loop
import Debug "mo:core/Debug";
let grid = [[1, 2, 3], [4, 50, 6], [7, 8, 90]];
let found : ?(Nat, Nat) = label search : ?(Nat, Nat) {
  for (i in grid.keys()) {
    for (j in grid[i].keys()) { if (grid[i][j] > 10) break search(?(i, j)) };
  };
  null
};
Debug.print(debug_show found);
var rowsWithEven = 0;
label rows for (row in grid.vals()) {
  for (x in row.vals()) { if (x % 2 == 0) { rowsWithEven += 1; continue rows } };
};
Debug.print(debug_show rowsWithEven);
