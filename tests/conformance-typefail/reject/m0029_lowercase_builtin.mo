let b : bool = true;
b
