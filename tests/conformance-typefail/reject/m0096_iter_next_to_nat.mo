let it = [1, 2].vals();
let n : Nat = it.next();
n
