// A text literal pattern matches a Blob scrutinee by its bytes (escapes included).
import Debug "mo:core/Debug";

func kind(b : Blob) : Nat {
  switch b { case "bar" 1; case "foo" 2; case "\00\ff" 3; case "" 4; case _ 5 }
};
Debug.print(debug_show (switch ("foo" : Blob) { case "bar" 1; case "foo" 2; case _ 3 }));
Debug.print(debug_show (kind "bar", kind "foo", kind "\00\ff", kind "", kind "baz"));
let ?x = ?("ab" : Blob) else { loop {} };
Debug.print(debug_show (switch (x, "c" : Blob) { case ("ab", "c") true; case _ false }));
let t = "foo";
Debug.print(debug_show (switch t { case "foo" 1; case _ 2 }));
