import Debug "mo:core/Debug";
type Key = { kind : { #user; #group }; id : Nat };
let admins : [Key] = [{ kind = #group; id = 1 }, { id = 7; kind = #user }];
func isAdmin(k : Key) : Bool {
  for (a in admins.vals()) { if (a == k) return true };
  false
};
Debug.print(debug_show (isAdmin({ kind = #user; id = 7 }), isAdmin({ kind = #user; id = 1 })));
let k : Key = { id = 1; kind = #group };
Debug.print(switch (k == admins[0], k != admins[1]) { case (true, true) "first only"; case _ "other" });
