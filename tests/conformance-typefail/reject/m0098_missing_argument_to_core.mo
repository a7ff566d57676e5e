import Array "mo:core/Array";
Array.map([1, 2, 3])
