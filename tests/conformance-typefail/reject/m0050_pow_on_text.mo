let t = "ab";
t ** 2
