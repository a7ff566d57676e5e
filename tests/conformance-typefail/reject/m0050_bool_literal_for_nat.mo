let flag : Nat = true;
flag
