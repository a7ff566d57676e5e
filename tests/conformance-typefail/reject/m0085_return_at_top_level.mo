let x = 3;
return x
