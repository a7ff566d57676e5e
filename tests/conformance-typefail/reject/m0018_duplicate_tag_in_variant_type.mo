type State = { #on; #off; #on };
let s : State = #on;
s
