let shop = object {
  public let name = "corner";
  public let items = 3;
};
let n : Nat = shop.name;
n
