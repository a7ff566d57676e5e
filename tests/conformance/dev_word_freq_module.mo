// a module counting words with a Map, called from the program body
import Debug "mo:core/Debug";
import Map "mo:core/Map";
import Text "mo:core/Text";
import Iter "mo:core/Iter";
module Words {
  public func count(t : Text) : Map.Map<Text, Nat> {
    let m = Map.empty<Text, Nat>();
    for (w in Text.split(Text.toLower(t), #char ' ')) {
      if (w != "") {
        let n = switch (Map.get(m, Text.compare, w)) { case (?k) k; case null 0 };
        Map.add(m, Text.compare, w, n + 1);
      };
    };
    m
  };
};
let m = Words.count("The cat and the dog and THE bird");
Debug.print(debug_show Iter.toArray(Map.entries(m)));
Debug.print(debug_show (Map.size(m), Map.get(m, Text.compare, "the")));
