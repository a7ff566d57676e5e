// mo:core Float, Char, Text, Bool, Option, Blob and Principal functions not used elsewhere.
import Debug "mo:core/Debug";
import Float "mo:core/Float";
import Char "mo:core/Char";
import Text "mo:core/Text";
import Bool "mo:core/Bool";
import Option "mo:core/Option";
import Blob "mo:core/Blob";
import Principal "mo:core/Principal";

func show(what : Text, t : Text) { Debug.print(what # " " # t) };

show("tan", debug_show (Float.tan(0.5)));
show("pow", debug_show (Float.pow(2.0, 10.0)));
show("isNaN", debug_show (Float.isNaN(0.0 / 0.0), Float.isNaN(1.0)));
show("compare", debug_show (Float.compare(1.5, 2.5), Float.compare(2.5, 2.5)));
show("notEqual", debug_show (Float.notEqual(1.0, 1.5, 0.1), Float.notEqual(1.0, 1.05, 0.1)));
show("equal", debug_show (Float.equal(0.1 + 0.2, 0.3, 1e-9), Float.equal(1.0, 1.5, 0.1), Float.equal(0.1 + 0.2, 0.3, 0.0)));

show("isUpper", debug_show (Char.isUpper('A'), Char.isUpper('a'), Char.isUpper('1')));
show("isLower", debug_show (Char.isLower('A'), Char.isLower('z')));
show("compare", debug_show (Char.compare('a', 'b'), Char.compare('b', 'a'), Char.compare('x', 'x')));
show("equal", debug_show (Char.equal('a', 'a'), Char.equal('a', 'A')));

var chars = "";
for (c in Text.toIter("héllo")) { chars #= Char.toText(c) # "|" };
show("toIter", chars);

show("Bool.compare", debug_show (Bool.compare(false, true), Bool.compare(true, true)));
show("Bool.equal", debug_show (Bool.equal(true, false), Bool.equal(false, false)));

show("some", debug_show (Option.some<Nat>(3)));
show("Option.equal", debug_show (
  Option.equal<Nat>(?1, ?1, func(a, b) { a == b }),
  Option.equal<Nat>(?1, null, func(a, b) { a == b }),
  Option.equal<Nat>(null, null, func(a, b) { a == b })
));

let b1 : Blob = "\00\01\02";
let b2 : Blob = "\00\02";
show("Blob.size", debug_show (Blob.size(b1), Blob.size(b2)));
show("Blob.compare", debug_show (Blob.compare(b1, b2), Blob.compare(b2, b1), Blob.compare(b1, b1)));

let anon = Principal.anonymous();
let mgmt = Principal.fromText("aaaaa-aa");
show("anonymous", Principal.toText(anon));
show("Principal.compare", debug_show (Principal.compare(anon, mgmt), Principal.compare(mgmt, anon)));
show("Principal.equal", debug_show (Principal.equal(anon, anon), Principal.equal(anon, mgmt)));
