// a to-do list: records with a variant status in a mutable array, updated in place
import Debug "mo:core/Debug";
import Array "mo:core/Array";

type Status = { #open; #done : Nat; #dropped : Text };
type Task = { id : Nat; title : Text; var status : Status };

let tasks : [Task] = [
  { id = 1; title = "write"; var status = #open },
  { id = 2; title = "test"; var status = #open },
  { id = 3; title = "ship"; var status = #open },
];

func find(id : Nat) : ?Task { Array.find<Task>(tasks, func t = t.id == id) };

switch (find(2)) { case (?t) t.status := #done(20); case null {} };
switch (find(3)) { case (?t) t.status := #dropped("no time"); case null {} };
switch (find(9)) { case (?t) t.status := #open; case null Debug.print("no task 9") };

for (t in tasks.vals()) {
  let s = switch (t.status) {
    case (#open) "open";
    case (#done(day)) "done on day " # debug_show day;
    case (#dropped(why)) "dropped: " # why;
  };
  Debug.print(debug_show t.id # " " # t.title # ": " # s);
};
