let i : Int = 1.5;
i
