func nameOf<R <: { name : Text }>(r : R) : Text { r.name };
nameOf<{ id : Nat }>({ id = 1 })
