let word = "hello";
let i = 1;
word[i]
