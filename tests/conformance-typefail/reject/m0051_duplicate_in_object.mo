let o = object {
  public let a = 1;
  public let a = 2;
};
o.a
