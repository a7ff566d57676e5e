let counter = object {
  var n = 0;
  public func next() : Nat { n += 1; n };
};
let t : Text = counter.next();
t
