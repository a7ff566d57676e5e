import Debug "mo:core/Debug";
import Principal "mo:core/Principal";
Debug.print(debug_show (Principal.fromText("aaaaa-aa")));
Debug.print(debug_show (Principal.toText(Principal.fromText("2vxsx-fae"))));
Debug.print(debug_show (Principal.isAnonymous(Principal.fromText("2vxsx-fae"))));
Debug.print(debug_show (Principal.fromText("rrkah-fqaaa-aaaaa-aaaaq-cai")));
