// Blob: from and to arrays of bytes, size, equality, shown with escapes.
import Debug "mo:core/Debug";
import Blob "mo:core/Blob";
let b = Blob.fromArray([0, 1, 127, 128, 255]);
Debug.print(debug_show (b, Blob.size(b), Blob.toArray(b)));
let t : Blob = "hello";
Debug.print(debug_show (t, Blob.equal(t, "hello"), t.size()));
for (byte in b.vals()) { Debug.print(debug_show byte) };
