class Greeter(greeting : Text) {
  public func hello(n : Text) : Text { greeting # ", " # n };
};
let g = Greeter("hi");
greeting
