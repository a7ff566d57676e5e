var i = 0;
let total : Nat = loop { i += 1; if (i > 3) break };
total
