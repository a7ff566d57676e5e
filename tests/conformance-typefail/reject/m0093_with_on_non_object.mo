let n = 5;
let r = { n with extra = 1 };
r
