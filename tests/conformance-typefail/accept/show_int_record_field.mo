import Debug "mo:core/Debug";
type Entry = { key : Text; delta : Int };
let e : Entry = { key = "k"; delta = 3 };
let es : [Entry] = [e, { key = "j"; delta = 0 }];
Debug.print(debug_show es)
