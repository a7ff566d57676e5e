let t = "\FF";
t
