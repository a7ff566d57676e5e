let t = "hello";
t.capitalize()
