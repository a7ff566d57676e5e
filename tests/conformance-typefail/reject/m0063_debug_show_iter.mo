let it = [1, 2].vals();
debug_show it
