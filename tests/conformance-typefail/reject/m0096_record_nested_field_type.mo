type Addr = { city : Text };
type User = { name : Text; addr : Addr };
let n = 5;
let u : User = { name = "a"; addr = { city = n } };
u
