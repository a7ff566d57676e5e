func read(r : { n : Nat }) : Nat { r.n };
read({ var n = 3 })
