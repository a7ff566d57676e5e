// a scoreboard class sorting records by score with Array.sort and a comparison function
import Debug "mo:core/Debug";
import Array "mo:core/Array";
import Int "mo:core/Int";
type Entry = { who : Text; score : Int };
class Board() {
  public var entries : [Entry] = [];
  public func add(who : Text, score : Int) { entries := Array.concat(entries, [{ who; score }]) };
  public func top(n : Nat) : [Entry] {
    let sorted = Array.sort<Entry>(entries, func(a, b) = Int.compare(b.score, a.score));
    Array.sliceToArray<Entry>(sorted, 0, if (n < sorted.size()) n else sorted.size())
  };
};
let b = Board();
b.add("a", 3); b.add("b", -1); b.add("c", 10); b.add("d", 3);
Debug.print(debug_show b.top(2));
Debug.print(debug_show b.top(9).size());
