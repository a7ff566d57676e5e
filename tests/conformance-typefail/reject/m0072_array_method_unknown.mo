let xs = [1, 2, 3];
xs.length()
