func pair<T, T>(a : T, b : T) : (T, T) { (a, b) };
pair(1, 2)
