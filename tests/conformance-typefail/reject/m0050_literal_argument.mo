func repeat(t : Text, n : Nat) : Text {
  var out = "";
  for (_ in [0].vals()) { out #= t };
  ignore n;
  out
};
repeat("ab", "2")
