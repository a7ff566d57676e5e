// mo:core List: add, get, size, values, removeLast.
import Debug "mo:core/Debug";
import List "mo:core/List";
let l = List.empty<Nat>();
for (i in [10, 20, 30, 40].vals()) { List.add(l, i) };
Debug.print(debug_show (List.size(l), List.get(l, 2), List.get(l, 9)));
Debug.print(debug_show (List.removeLast(l), List.size(l)));
var sum = 0;
for (x in List.values(l)) { sum += x };
Debug.print(debug_show sum);
Debug.print(debug_show (List.toArray(l)));
