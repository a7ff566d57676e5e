let x : config.Size = 1;
x
