var total = 0;
let done = "done";
total := done;
total
