func total<T <: Nat>(xs : [T]) : Nat {
  var s = 0;
  for (x in xs.vals()) { s += x };
  s
};
total(["a"])
