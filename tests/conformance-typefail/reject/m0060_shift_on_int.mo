let i : Int = 8;
i << 1
