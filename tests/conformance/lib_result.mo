import Result "mo:core/Result";
import Debug "mo:core/Debug";
import Nat "mo:core/Nat";

func parse(t : Text) : Result.Result<Nat, Text> = switch (Nat.fromText(t)) {
  case (?n) #ok n;
  case null #err ("not a number: " # t)
};
let good = parse("42");
let bad = parse("x");
Debug.print(debug_show (good, bad, Result.isOk(good), Result.isErr(bad)));
Debug.print(debug_show (Result.mapOk<Nat, Nat, Text>(good, func n = n + 1), Result.mapOk<Nat, Nat, Text>(bad, func n = n + 1)));
Debug.print(debug_show (Result.mapErr<Nat, Text, Nat>(bad, func e = e.size()), Result.toOption(good), Result.toOption(bad)));
Debug.print(debug_show (Result.chain<Nat, Nat, Text>(good, func n = if (n > 40) #err "big" else #ok n), Result.fromOption<Nat, Text>(null, "none"), Result.fromOption<Nat, Text>(?3, "none")));
Debug.print(debug_show (Result.flatten<Nat, Text>(#ok(#ok 7))));
Result.forOk<Nat, Text>(good, func n = Debug.print("ok " # debug_show n));
Result.forErr<Nat, Text>(bad, func e = Debug.print("err " # e));
Result.forErr<Nat, Text>(good, func e = Debug.print("never"));
Result.assertOk(good);
Result.assertErr(bad);
Debug.print("asserted");
