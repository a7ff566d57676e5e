let t = "abc";
t[0]
