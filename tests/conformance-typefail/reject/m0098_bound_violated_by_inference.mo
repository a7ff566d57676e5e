func maxOf<T <: Int>(a : T, b : T) : T { if (a > b) a else b };
maxOf("a", "b")
