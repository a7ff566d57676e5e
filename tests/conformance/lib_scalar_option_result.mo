// mo:core/Option (apply, compare, flatten, getMapped) and mo:core/Result (compare, equal,
// fromUpper, toUpper), called both ways, with implicit arguments left out where core allows.
import Option "mo:core/Option";
import Result "mo:core/Result";
import Nat "mo:core/Nat";
import Text "mo:core/Text";
import Debug "mo:core/Debug";
func show(what : Text, t : Text) { Debug.print(what # " " # t) };
show("option", debug_show (Option.apply<Nat, Nat>(?3, ?(func x = x + 1)), Option.apply<Nat, Nat>(null, ?(func x = x + 1)), Option.apply<Nat, Nat>(?3, null)));
show("optcmp", debug_show (Option.compare<Nat>(null, null, Nat.compare), Option.compare<Nat>(null, ?1, Nat.compare), Option.compare<Nat>(?1, null, Nat.compare), Option.compare<Nat>(?1, ?2, Nat.compare), Option.compare(?"b", ?"a", Text.compare)));
show("optflat", debug_show (Option.flatten<Nat>(??1), Option.flatten<Nat>(?null), Option.flatten<Nat>(null)));
show("getMapped", debug_show (Option.getMapped<Nat, Text>(?4, Nat.toText, "none"), Option.getMapped<Nat, Text>(null, Nat.toText, "none")));
show("dotopt", debug_show ((?5).getMapped(func(n : Nat) : Nat = n * 2, 0), (?5).compare(?6), (??7).flatten()));
let r1 : Result.Result<Nat, Text> = #ok 1;
let r2 : Result.Result<Nat, Text> = #ok 2;
let e1 : Result.Result<Nat, Text> = #err "a";
let e2 : Result.Result<Nat, Text> = #err "b";
show("rcmp", debug_show (Result.compare(r1, r2, Nat.compare, Text.compare), Result.compare(r1, e1, Nat.compare, Text.compare), Result.compare(e1, r1, Nat.compare, Text.compare), Result.compare(e2, e1, Nat.compare, Text.compare)));
show("req", debug_show (Result.equal(r1, r1, Nat.equal, Text.equal), Result.equal(r1, r2, Nat.equal, Text.equal), Result.equal(r1, e1, Nat.equal, Text.equal), Result.equal(e1, e1, Nat.equal, Text.equal)));
show("rimplicit", debug_show (Result.compare(e1, e2), r1.compare(r2), e1.equal(e1, Nat.equal, Text.equal)));
show("upper", debug_show (Result.toUpper(r1), Result.toUpper(e1), Result.fromUpper<Nat, Text>(#Ok 5), Result.fromUpper<Nat, Text>(#Err "x"), r2.toUpper()));
