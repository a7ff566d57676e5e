class Box(v : Nat) {
  public func get() : Nat { v };
};
let seven = "seven";
let b = Box(seven);
b.get()
