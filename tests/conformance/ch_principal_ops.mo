// Principal: text round trip, blob form, anonymous.
import Debug "mo:core/Debug";
import Principal "mo:core/Principal";
let p = Principal.fromText("ryjl3-tyaaa-aaaaa-aaaba-cai");
Debug.print(debug_show (p, Principal.toText(p), Principal.toBlob(p)));
Debug.print(debug_show (Principal.isAnonymous(Principal.anonymous()), Principal.isAnonymous(p)));
Debug.print(debug_show (Principal.fromBlob("\04")));
