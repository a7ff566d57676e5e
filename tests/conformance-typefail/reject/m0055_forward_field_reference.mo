let o = object {
  public let a = b + 1;
  public let b = 1;
};
o.a
