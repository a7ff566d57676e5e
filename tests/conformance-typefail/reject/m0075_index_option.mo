let o : ?[Nat] = ?[1];
o[0]
