import Map "mo:core/Map";
let m : Map.Mapp<Nat, Text> = Map.empty();
m
