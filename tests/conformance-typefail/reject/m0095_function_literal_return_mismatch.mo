let handlers : [Nat -> Text] = [func (n : Nat) : Nat { n }];
handlers.size()
