// an object holding callbacks (closures) registered by other parts of the program
import Debug "mo:core/Debug";
import Array "mo:core/Array";

object bus {
  var handlers : [(Text, Text -> ())] = [];
  public var sent = 0;
  public func on(topic : Text, h : Text -> ()) { handlers := Array.concat(handlers, [(topic, h)]) };
  public func emit(topic : Text, msg : Text) {
    sent += 1;
    for ((t, h) in handlers.vals()) { if (t == topic) h(msg) };
  };
};

var seen = "";
bus.on("greet", func(m) { seen #= "[" # m # "]" });
bus.on("greet", func(m) { Debug.print("hello " # m) });
bus.on("bye", func(m) { Debug.print("bye " # m) });
bus.emit("greet", "ann");
bus.emit("bye", "bob");
bus.emit("none", "x");
Debug.print(seen # " " # debug_show bus.sent);
