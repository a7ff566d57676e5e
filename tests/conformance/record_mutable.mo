import Debug "mo:core/Debug";
let r = { var count = 0; name = "c" };
r.count += 5;
r.count := r.count * 2;
Debug.print(debug_show (r.count, r.name));
