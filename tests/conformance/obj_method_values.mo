// an object's methods passed as function values, closing over its state
import Debug "mo:core/Debug";
import Array "mo:core/Array";
object acc {
  public var sum = 0;
  public func add(x : Nat) { sum += x };
  public func scaled(x : Nat) : Nat { x * (sum + 1) };
};
Array.forEach<Nat>([1, 2, 3], acc.add);
Debug.print(debug_show acc.sum);
Debug.print(debug_show Array.map<Nat, Nat>([1, 10], acc.scaled));
acc.sum := 0;
Debug.print(debug_show Array.map<Nat, Nat>([1, 10], acc.scaled));
