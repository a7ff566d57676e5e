func setup() : Nat {
  let secret = 42;
  secret
};
func use() : Nat { secret + 1 };
use()
