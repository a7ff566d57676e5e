// Literal typing: a signed number literal (+5, -5) is an Int, as in moc; text literals
// passed to built-ins taking a Blob are Blobs; built-ins returning Int give Int values.
import Debug "mo:core/Debug";
import Principal "mo:core/Principal";
import Blob "mo:core/Blob";
import Int "mo:core/Int";
import Nat "mo:core/Nat";
import Float "mo:core/Float";
import Int8 "mo:core/Int8";
import Int16 "mo:core/Int16";
import Int32 "mo:core/Int32";
import Int64 "mo:core/Int64";
import Nat8 "mo:core/Nat8";
import Nat64 "mo:core/Nat64";
Debug.print(debug_show (+3, { a = +5 }, -5, (+7 : Int), +0, -(4), +(4)));
let i = +5;
Debug.print(debug_show (i, i + 1));
Debug.print(debug_show (Principal.fromBlob("\04"), Blob.size "abc", Blob.equal("a", "a"), Blob.toArray "\01\02", Blob.compare("a", "b")));
Debug.print(debug_show (Int.abs(-3), Float.toInt 3.7, Int.fromText "12", Nat.toInt 5, Int.max(1, 2), Int.min(1, 2), Int.neg 3));
Debug.print(debug_show (Int.fromNat 4, Int.add(1, 2), Int.sub(5, 2), Int.mul(2, 3), Int.div(7, 2), Int.rem(7, 2), Int.pow(2, 3)));
Debug.print(debug_show (Int.toNat 4, Int.fromText "+4", Int.fromText "-4", Int.range(1, 3).next(), Int.rangeInclusive(1, 3).next()));
Debug.print(debug_show (Int8.toInt 5, Int16.toInt 5, Int32.toInt 5, Int64.toInt 5, Nat8.toNat 5, Nat64.toNat 5));
Debug.print(debug_show (Int8.fromInt 5, Int64.fromInt(+5), Int.toText 5, Int.toText(-5), Float.fromInt 5, Int.compare(1, 2), Int.equal(1, 1)));
