// two modules declaring a type of the same name: each path names its own declaration
import Debug "mo:core/Debug";
module A { public type T = Nat; public func mk() : T { 5 } };
module B { public type T = Int; public func mk() : T { 5 } };
module C { public module D { public type T = { n : Int } } };
let x : A.T = 5;
let y : B.T = 5;
let z : C.D.T = { n = 2 };
Debug.print(debug_show (x, y, A.mk(), B.mk(), z));
