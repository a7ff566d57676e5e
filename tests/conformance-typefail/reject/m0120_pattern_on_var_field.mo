let cell = { var value = 3 };
let { value } = cell;
value
