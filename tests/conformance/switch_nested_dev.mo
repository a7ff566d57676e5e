// switches over nested records, options and variants, as a parser of commands would
import Debug "mo:core/Debug";

type Cmd = { #move : { dx : Int; dy : Int }; #say : ?Text; #batch : [Cmd] };

func run(c : Cmd, depth : Nat) : Text {
  switch c {
    case (#move { dx = 0; dy = 0 }) "stay";
    case (#move { dx; dy = 0 }) "horizontal " # debug_show dx;
    case (#move { dx = 0; dy }) "vertical " # debug_show dy;
    case (#move { dx; dy }) "diagonal " # debug_show (dx, dy);
    case (#say null) "...";
    case (#say(?"")) "(empty)";
    case (#say(?t)) "says " # t;
    case (#batch cs) {
      var out = "[";
      for (x in cs.vals()) { out #= run(x, depth + 1) # ";" };
      out # "]"
    };
  }
};

for (c in [#move { dx = 0; dy = 0 }, #move { dx = 2; dy = 0 }, #move { dx = 0; dy = -1 },
  #move { dx = 1; dy = 1 }, #say null, #say(?""), #say(?"hi"),
  #batch([#say(?"a"), #move { dx = -3; dy = 0 }])].vals()) {
  Debug.print(run(c, 0));
};
