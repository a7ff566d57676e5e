func pair<A, B>(a : A, b : B) : (A, B) { (a, b) };
pair<Nat>(1, 2)
