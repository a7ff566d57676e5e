let c : Char = "a";
c
