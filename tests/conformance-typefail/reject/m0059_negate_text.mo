let t = "abc";
-t
