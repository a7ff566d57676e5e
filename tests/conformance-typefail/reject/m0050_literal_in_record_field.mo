type Item = { name : Text; qty : Nat };
let i : Item = { name = "pen"; qty = "three" };
i
