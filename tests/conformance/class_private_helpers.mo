// a class with private functions and private state, only its public methods visible
import Debug "mo:core/Debug";
class Password(min : Nat) {
  var attempts = 0;
  func hasDigit(t : Text) : Bool { for (c in t.chars()) { if (c >= '0' and c <= '9') return true }; false };
  func longEnough(t : Text) : Bool { t.size() >= min };
  public func check(t : Text) : { #ok; #short : Text } {
    attempts += 1;
    if (not longEnough(t)) #short "too short" else if (not hasDigit(t)) #short "needs a digit" else #ok
  };
  public func tries() : Nat { attempts };
};
let p = Password(6);
for (t in ["abc", "abcdefg", "abc1234"].vals()) { Debug.print(debug_show p.check(t)) };
Debug.print(debug_show p.tries());
