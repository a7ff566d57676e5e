// A DAG that unfolds to 2^60 leaves, a cyclic record, both converted at annotations.
type T = { #leaf : Int; #pair : (T, T); #two : (T, T) };
var t : T = #leaf 1;
var i = 0;
while (i < 60) { t := #pair(t, t); i += 1 };
let u : T = t;
type R = { var next : ?R; x : Int };
let r : R = { var next : ?R = null; x = 1 };
r.next := ?r;
let s : R = r;
(switch u { case (#pair(#pair(_, _), _)) 1; case _ 0 }, s.x)
