func port(p : Nat16) : Nat16 { p };
port(70000)
