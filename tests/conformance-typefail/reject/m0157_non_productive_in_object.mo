// An object's type declarations are checked with the block around the object (here the
// whole program); a class's with the class.
let x = 1;
object o {
  type T = T;
  public let v = 1;
};
