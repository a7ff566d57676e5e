var i = 0;
label outer loop {
  i += 1;
  if (i > 3) break inner;
};
i
