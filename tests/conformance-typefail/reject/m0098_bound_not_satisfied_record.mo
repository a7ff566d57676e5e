func name<R <: { name : Text }>(r : R) : Text { r.name };
name({ title = "x" })
