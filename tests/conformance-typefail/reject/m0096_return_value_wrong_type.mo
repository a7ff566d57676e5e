func size(xs : [Nat]) : Text {
  let n = xs.size();
  n
};
size([1, 2, 3])
