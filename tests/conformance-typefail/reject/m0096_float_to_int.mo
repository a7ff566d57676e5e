let f = 2.5;
let i : Int = f;
i
