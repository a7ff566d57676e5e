func isOne<T>(x : T) : Bool {
  switch x {
    case 1 { true };
    case _ { false };
  }
};
isOne<Nat>(1)
