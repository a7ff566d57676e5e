import Debug "mo:core/Debug";
// `==` compares at the operands' static type: fields outside it do not count
func sameX(a : { x : Nat }, b : { x : Nat }) : Bool = a == b;
Debug.print(debug_show sameX({ x = 1; y = 2 }, { x = 1; y = 3 }));
Debug.print(debug_show sameX({ x = 1; y = 2 }, { x = 2; y = 2 }));
let p : { name : Text } = { name = "ann"; age = 31 };
let q : { name : Text } = { name = "ann"; age = 32 };
Debug.print(debug_show (p == q));
let wrapped : ?{ name : Text } = ?{ name = "bob"; id = 7 };
Debug.print(debug_show (wrapped == ?{ name = "bob" }, ?{ name = "bob"; id = 8 } == wrapped));
let people : [{ name : Text }] = [{ name = "cy"; id = 1 }, { name = "cy"; id = 2 }];
Debug.print(debug_show (people[0] == people[1]));
