let xs = [1];
switch xs {
  case (?a) { 1 };
  case _ { 0 };
}
