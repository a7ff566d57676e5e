let r = { Name = "x" };
r.name
