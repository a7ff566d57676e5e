let i : Int = 5;
^i
