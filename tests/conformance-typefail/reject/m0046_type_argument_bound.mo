func neg<T <: Int>(x : T) : Int { -x };
neg<Text>("a")
