var t = "abc";
t -= "c";
t
