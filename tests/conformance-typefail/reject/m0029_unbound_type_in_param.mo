func show(u : User) : Text { u.name };
show({ name = "x" })
