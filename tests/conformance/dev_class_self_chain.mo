// a builder class whose methods return the object itself (`= self`) for chaining
import Debug "mo:core/Debug";
import Text "mo:core/Text";

class Query() = self {
  var parts : [Text] = [];
  public var limit : ?Nat = null;
  public func where_(cond : Text) : Query { parts := [cond]; self };
  public func take(n : Nat) : Query { limit := ?n; self };
  public func render() : Text {
    let base = "SELECT *" # (if (parts.size() > 0) " WHERE " # parts[0] else "");
    switch limit { case (?n) base # " LIMIT " # debug_show n; case null base }
  };
};

let q = Query().where_("age > 30").take(5);
Debug.print(q.render());
q.limit := null;
Debug.print(q.render());
Debug.print(Query().render());
