func describe(o : ?Nat) : Nat {
  switch o {
    case (?n) { n };
    case null { n + 1 };
  }
};
describe(null)
