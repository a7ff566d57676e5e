let o : ?Nat = ?4;
switch o {
  case (?v) { ignore v };
  case null {};
};
v
