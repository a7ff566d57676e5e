let x = 1;
let r = do {
  let x = "inner";
  x # "!"
};
debug_show (x + 1, r)
