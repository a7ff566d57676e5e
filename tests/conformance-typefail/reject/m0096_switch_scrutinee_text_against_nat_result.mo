func code(t : Text) : Nat {
  switch t {
    case "a" { 1 };
    case _ { t };
  }
};
code("b")
