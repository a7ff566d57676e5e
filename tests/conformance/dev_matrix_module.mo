// a module with a type and functions over it, nested arrays
import Debug "mo:core/Debug";
import Array "mo:core/Array";

module Matrix {
  public type M = [[Int]];
  public func identity(n : Nat) : M {
    Array.tabulate<[Int]>(n, func i = Array.tabulate<Int>(n, func j = if (i == j) 1 else 0))
  };
  public func mul(a : M, b : M) : M {
    Array.tabulate<[Int]>(a.size(), func i =
      Array.tabulate<Int>(b[0].size(), func j {
        var s : Int = 0;
        for (k in a[i].keys()) { s += a[i][k] * b[k][j] };
        s
      }))
  };
  public func trace(a : M) : Int { var t : Int = 0; for (i in a.keys()) { t += a[i][i] }; t };
};

let m : Matrix.M = [[1, 2], [3, -4]];
let p = Matrix.mul(m, m);
Debug.print(debug_show p);
Debug.print(debug_show (Matrix.trace(p), Matrix.mul(m, Matrix.identity(2)) == m));
