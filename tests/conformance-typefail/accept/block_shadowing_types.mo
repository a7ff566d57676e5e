import Debug "mo:core/Debug";
let x = 1;
let r = do {
  let x = "inner";
  x # "!"
};
Debug.print(debug_show (x + 1, r))
