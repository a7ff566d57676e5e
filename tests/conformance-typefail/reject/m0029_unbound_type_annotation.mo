let x : Natural = 5;
x
