let r : ?{ name : Text } = ?{ name = "x" };
r.name
