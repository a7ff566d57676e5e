let i : Int = 1;
let t = "1";
i ^ t
