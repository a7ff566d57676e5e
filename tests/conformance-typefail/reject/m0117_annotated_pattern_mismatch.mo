let (a : Text, b) = (1, 2);
b
