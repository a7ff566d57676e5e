func area({ w : Nat; h : Nat; d : Nat }) : Nat { w * h * d };
let r = { w = 1; h = 2 };
area(r)
