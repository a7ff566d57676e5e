let it = [1, 2, 3].vals();
it[0]
