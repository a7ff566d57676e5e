let owner = "carol";
let rec = { owner; balanec };
rec
