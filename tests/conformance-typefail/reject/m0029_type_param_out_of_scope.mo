func id<T>(x : T) : T { x };
let y : T = id(3);
y
