let r = label search : Nat {
  for (x in [1, 2, 3].vals()) {
    if (x == 2) break search "found";
  };
  0
};
r
