// A pure List receiver fits both pure/List.get and Option.get (a List is an option): moc
// finds neither more specific and rejects the call.
import Debug "mo:core/Debug";
import Option "mo:core/Option";
import List "mo:core/pure/List";
import PMap "mo:core/pure/Map";
import PSet "mo:core/pure/Set";
import PQueue "mo:core/pure/Queue";
import Map "mo:core/Map";
import Set "mo:core/Set";
import Stack "mo:core/Stack";
import Queue "mo:core/Queue";
import VList "mo:core/List";
import Nat "mo:core/Nat";
import Iter "mo:core/Iter";
let l = List.fromArray<Nat>([1,2,3]);
Debug.print(debug_show (l.get(1), l.size(), l.isEmpty(), Iter.toArray(l.values())));