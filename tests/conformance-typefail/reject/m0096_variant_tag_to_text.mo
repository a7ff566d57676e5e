type Status = { #active; #banned };
let s : Status = #active;
let t : Text = s;
t
