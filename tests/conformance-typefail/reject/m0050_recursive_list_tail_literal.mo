type List = ?(Nat, List);
let l : List = ?(1, ?(2, 3));
l
