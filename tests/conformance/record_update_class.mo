// a class holding immutable records, updated with `{ r with ... }`
import Debug "mo:core/Debug";
import Array "mo:core/Array";

type Player = { name : Text; score : Int; level : Nat };

class League() {
  public var players : [Player] = [];
  public func join(name : Text) { players := Array.concat(players, [{ name; score = 0; level = 1 }]) };
  public func win(name : Text, points : Int) {
    players := Array.map<Player, Player>(players, func p =
      if (p.name == name) { { p with score = p.score + points; level = p.level + 1 } } else p);
  };
  public func leader() : ?Player {
    var best : ?Player = null;
    for (p in players.vals()) {
      switch best { case (?b) { if (p.score > b.score) best := ?p }; case null best := ?p };
    };
    best
  };
};

let l = League();
l.join("ann");
l.join("bob");
l.win("bob", 3);
l.win("ann", -1);
l.win("bob", 2);
Debug.print(debug_show l.players);
Debug.print(debug_show l.leader());
