let nats : [var Nat] = [var 1, 2];
let ints : [var Int] = nats;
ints[0] := -1;
nats[0]
