func fail() : Nat {
  throw 5;
};
fail()
