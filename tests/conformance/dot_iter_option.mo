// Iter, Option, Result, Order, Blob, Principal, Bool with dot notation.
import Iter "mo:core/Iter";
import Option "mo:core/Option";
import Result "mo:core/Result";
import Order "mo:core/Order";
import Blob "mo:core/Blob";
import Principal "mo:core/Principal";
import Bool "mo:core/Bool";
import Nat "mo:core/Nat";
import Debug "mo:core/Debug";

let it = [1, 2, 3, 4].vals();
Debug.print(debug_show (it.map(func x = x * 3).filter(func x = x % 2 == 0).toArray()));
Debug.print(debug_show ([5, 6, 7].vals().take(2).toArray()));
Debug.print(debug_show ([5, 6, 7].vals().drop(2).toArray()));
Debug.print(debug_show ([5, 6, 7].vals().size()));
Debug.print(debug_show ([5, 6, 7].vals().reverse().toArray()));
Debug.print(debug_show ([5, 6, 7].vals().enumerate().toArray()));
Debug.print(debug_show ([5, 6, 7].vals().foldLeft<Nat, Nat>(0, func(a, x) = a + x)));
Debug.print(debug_show ([5, 6, 7].vals().find(func x = x > 5)));
Debug.print(debug_show ([5, 6, 7].vals().any(func x = x > 6)));
Debug.print(debug_show ([5, 6, 7].vals().all(func x = x > 6)));
Debug.print(debug_show ([5, 6, 7].vals().contains(6)));
Debug.print(debug_show ([5, 9, 7].vals().max()));
Debug.print(debug_show ([5, 9, 7].vals().min()));
Debug.print(debug_show ([5, 6].vals().concat([7].vals()).toArray()));
var n = 0;
[1, 2].vals().forEach(func x { n += x });
Debug.print(debug_show n);

let o : ?Nat = ?4;
Debug.print(debug_show (o.isSome()));
Debug.print(debug_show (o.isNull()));
Debug.print(debug_show (o.get(0)));
Debug.print(debug_show (o.map<Nat, Nat>(func x = x + 1)));
Debug.print(debug_show (o.chain<Nat, Nat>(func x = if (x > 3) ?x else null)));
Debug.print(debug_show (o.unwrap()));
Debug.print(debug_show (o.equal(?4)));
let none : ?Nat = null;
Debug.print(debug_show (none.get(7)));

let r : Result.Result<Nat, Text> = #ok 3;
Debug.print(debug_show (r.isOk()));
Debug.print(debug_show (r.isErr()));
Debug.print(debug_show (r.mapOk<Nat, Nat, Text>(func x = x * 2)));
Debug.print(debug_show (r.toOption()));
let e : Result.Result<Nat, Text> = #err "bad";
Debug.print(debug_show (e.mapErr<Nat, Text, Nat>(func t = t.size())));

let ord = Nat.compare(1, 2);
Debug.print(debug_show (ord.isLess()));
Debug.print(debug_show (ord.isGreater()));
Debug.print(debug_show (ord.equal(#less)));

let bl : Blob = "\01\02\03";
Debug.print(debug_show (bl.size()));
Debug.print(debug_show (bl.toArray()));
let p = Principal.fromText("aaaaa-aa");
Debug.print(p.toText());
Debug.print(debug_show (p.isAnonymous()));
Debug.print(debug_show (p.toBlob()));
Debug.print(true.toText());
Debug.print(debug_show (true.compare(false)));
Debug.print(o.toText());
Debug.print(none.toText());
o.forEach(func x { Debug.print(debug_show (x * 100)) });
// an endless iterator: `any`, `contains`, `findIndex` stop at the first match
let naturals = object {
  var i = 0;
  public func next() : ?Nat { i += 1; ?i };
};
Debug.print(debug_show (naturals.any(func x = x > 1000)));
Debug.print(debug_show (naturals.contains(2000)));
Debug.print(debug_show (naturals.findIndex(func x = x % 7 == 0)));
