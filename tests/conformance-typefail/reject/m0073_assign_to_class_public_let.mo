class Account() {
  public let owner = "a";
};
let a = Account();
a.owner := "b";
a.owner
