module Counter {
  var n = 0;
  public func next() : Nat { n += 1; n };
};
Counter.next()
