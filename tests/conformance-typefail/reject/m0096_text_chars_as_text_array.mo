let t = "abc";
let cs : [Text] = [t.chars()];
cs.size()
