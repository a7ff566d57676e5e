// Evaluation order, as in moc: record fields in source order, `a[i] := v` evaluates the
// array, the index, then the value; `x op= e` reads `x` before `e` runs; arguments, tuples,
// operands, arrays, bases of `and`/`with` left to right.
import Debug "mo:core/Debug";

var o = "";
let r = { b = do { o #= "b"; 1 }; a = do { o #= "a"; 2 } };
Debug.print(debug_show (r, o));

let arr = [var 0, 0];
func A() : [var Nat] { o #= "a"; arr };
func I() : Nat { o #= "i"; 1 };
func V() : Nat { o #= "v"; 5 };
o := "";
A()[I()] := V();
Debug.print(o);
o := "";
A()[I()] += V();
Debug.print(o # " " # debug_show arr);

let rec = { var f = 0 };
func R() : { var f : Nat } { o #= "r"; rec };
o := "";
R().f := V();
Debug.print(o);
o := "";
R().f += V();
Debug.print(o # " " # debug_show rec.f);

func two(a : Nat, b : Nat) : Nat = a + b;
o := "";
ignore two(do { o #= "1"; 1 }, do { o #= "2"; 2 });
ignore (do { o #= "3"; 1 }, do { o #= "4"; 2 });
ignore ((do { o #= "5"; 1 }) + (do { o #= "6"; 2 }));
ignore ((do { o #= "7"; 1 }) == (do { o #= "8"; 2 }));
ignore [do { o #= "9"; 1 }, do { o #= "A"; 2 }];
ignore (do { o #= "B"; two })(do { o #= "C"; 1 }, 2);
ignore (do { o #= "D"; "x" }) # (do { o #= "E"; "y" });
ignore ({ r with a = do { o #= "G"; 1 }; b = do { o #= "F"; 1 } });
ignore ({ (do { o #= "H"; r }) and (do { o #= "I"; { c = 1 } }) });
Debug.print(o);

// the current value is read before the right side runs
let xs = [var 1, 2];
xs[1] += do { xs[1] := 100; 7 };
let cell = { var f = 1 };
cell.f += do { cell.f := 100; 7 };
var x = 1;
x += do { x := 100; 7 };
var t = "a";
t #= do { t := "zzz"; "b" };
Debug.print(debug_show (xs, cell.f, x, t));
// the value is stored after it runs
A()[I()] := do { arr[1] := 100; 7 };
Debug.print(debug_show arr);
// the index is checked when storing, after the value ran
o := "";
func E() : [var Nat] { o #= "e"; [var] };
E()[I()] := do { Debug.print(o); V() };
