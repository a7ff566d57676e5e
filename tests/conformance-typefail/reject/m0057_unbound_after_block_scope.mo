do {
  let inner = 5;
  ignore inner;
};
inner + 1
