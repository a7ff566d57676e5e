// A class body is a block of its own: M0157 is at the class.
let x = 1;
class C() {
  type T = T;
  public let v = 1;
};
