let b = true;
-b
