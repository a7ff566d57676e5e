type Id = Nat;
type Id = Text;
let i : Id = 1;
i
