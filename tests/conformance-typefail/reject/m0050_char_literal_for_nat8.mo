let b : Nat8 = 'a';
b
