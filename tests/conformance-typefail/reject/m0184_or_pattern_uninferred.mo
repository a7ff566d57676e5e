let f = func (#a or #b) = 1;
f(#a)
