type Named = { name : Text };
let full = { name = "erin"; age = 30 };
let n : Named = full;
n.age
