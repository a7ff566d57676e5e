func wrap<T>(x : T) : Nat {
  type Box = { value : T };
  let b : Box = { value = x };
  ignore b;
  1
};
wrap(1)
