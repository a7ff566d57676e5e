type Num<T <: Int> = { value : T };
let n : Num<Text> = { value = "a" };
n
