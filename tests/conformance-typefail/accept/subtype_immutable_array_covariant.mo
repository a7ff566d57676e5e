import Debug "mo:core/Debug";
let nats : [Nat] = [1, 2, 3];
let ints : [Int] = nats;
let opts : [?Int] = [?1, null, ?(-2)];
Debug.print(debug_show (ints, opts))
