import Debug "mo:core/Debug";
import Principal "mo:core/Principal";
let p = Principal.fromText("rrkah-fqaaa-aaaaa-aaaaq-cai");
Debug.print(debug_show (Principal.toBlob(p)));
Debug.print(debug_show (p == Principal.fromBlob(Principal.toBlob(p))));
