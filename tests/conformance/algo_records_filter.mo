import Debug "mo:core/Debug";
import Array "mo:core/Array";
type User = { name : Text; age : Nat };
let users : [User] = [{ name = "a"; age = 30 }, { name = "b"; age = 17 }, { name = "c"; age = 45 }];
let adults = Array.filter<User>(users, func u = u.age >= 18);
Debug.print(debug_show adults);
Debug.print(debug_show (Array.map<User, Text>(adults, func u = u.name)));
