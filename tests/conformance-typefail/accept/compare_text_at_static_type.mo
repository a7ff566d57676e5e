import Debug "mo:core/Debug";
import Text "mo:core/Text";
let a = "apple";
let b = "Apple";
Debug.print(debug_show (a < b, Text.compare(a, b), a.compare(b)))
