import Debug "mo:core/Debug";
import Map "mo:core/Map";
import Text "mo:core/Text";
import Iter "mo:core/Iter";
class WordCount() {
  let counts = Map.empty<Text, Nat>();
  public func add(w : Text) {
    switch (Map.get(counts, Text.compare, w)) {
      case (?n) Map.add(counts, Text.compare, w, n + 1);
      case null Map.add(counts, Text.compare, w, 1);
    }
  };
  public func top() : ?(Text, Nat) {
    var best : ?(Text, Nat) = null;
    for ((w, n) in Map.entries(counts)) {
      switch best { case (?(_, m)) { if (n > m) best := ?(w, n) }; case null best := ?(w, n) };
    };
    best
  };
};
let wc = WordCount();
for (w in Text.split("a b a c b a", #char ' ')) { wc.add(w) };
Debug.print(debug_show wc.top());
