let r = do {
  return 5;
};
r
