func each<T>(xs : [T], f : T -> ()) { for (x in xs.vals()) { f x } };
each([1, 2], func (t : Text) { ignore t })
