let ready = true;
let total : Nat = 1 + (if ready 1 else 0);
let again : Nat = total + ready;
again
