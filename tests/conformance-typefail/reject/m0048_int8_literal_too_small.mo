let b : Int8 = -129;
b
