import Debug "mo:core/Debug";
import Array "mo:core/Array";
import Nat "mo:core/Nat";
import Text "mo:core/Text";
let words = ["pear", "fig", "apple"];
let nums = [3, 1, 2];
Debug.print(debug_show (words.sort(), nums.sort()))
