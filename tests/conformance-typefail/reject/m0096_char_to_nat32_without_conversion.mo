let c = 'a';
let code : Nat32 = c;
code
