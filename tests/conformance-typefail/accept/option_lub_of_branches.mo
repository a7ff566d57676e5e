func pick(b : Bool) : ?Int {
  if b ?(-1) else null
};
debug_show (pick(true), pick(false))
