import Debug "mo:core/Debug";
import Text "mo:core/Text";
func rev(t : Text) : Text { var r = ""; for (c in t.chars()) { r := Text.fromChar(c) # r }; r };
Debug.print(rev("stressed"));
