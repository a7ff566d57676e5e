import Debug "mo:core/Debug";
import Blob "mo:core/Blob";
Debug.print(debug_show (Blob.fromArray([1, 2, 255])));
Debug.print(debug_show (Blob.toArray("\01\02")));
Debug.print(debug_show (Blob.equal("a", "a")));
