for (i in [1, 2, 3].vals()) { ignore i };
i
