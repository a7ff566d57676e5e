let p = "aaaaa-aa";
let q : Principal = p;
q
