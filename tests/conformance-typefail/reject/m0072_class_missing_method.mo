class Counter() {
  var n = 0;
  public func inc() { n += 1 };
};
let c = Counter();
c.inc();
c.value()
