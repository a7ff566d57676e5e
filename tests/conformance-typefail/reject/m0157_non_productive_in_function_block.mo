// moc places M0157 at the block that declares the types: here the function's body.
func f() : Nat {
  let y = 2;
  type Loop = Loop;
  y
};
f()
