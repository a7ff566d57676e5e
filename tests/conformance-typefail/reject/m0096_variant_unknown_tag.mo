type Color = { #red; #green; #blue };
func pick(n : Nat) : Color {
  let c = if (n == 0) #red else #purple;
  c
};
pick(1)
