class Box(v : Nat) {
  public func get() : Nat { v };
};
let b = Box("seven");
b.get()
