// a captured parameter of a function whose parameters are converted (a record with an Int
// field), compared with `==` inside a closure
import Debug "mo:core/Debug";
import Array "mo:core/Array";

type Player = { name : Text; score : Int };
func wins(ps : [Player], who : Text) : [Bool] {
  Array.map<Player, Bool>(ps, func(p : Player) : Bool { p.name == who })
};
func bump(ps : [Player], who : Text, by : Int) : [Player] {
  Array.map<Player, Player>(ps, func p = if (p.name == who) { { p with score = p.score + by } } else p)
};
let ps : [Player] = [{ name = "a"; score = 1 }, { name = "b"; score = -2 }];
Debug.print(debug_show wins(ps, "a"));
Debug.print(debug_show bump(ps, "b", 5));
