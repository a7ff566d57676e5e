// a module of generic functions over an immutable stack type built from options
import Debug "mo:core/Debug";
module Stack {
  public type Stack<T> = ?(T, Stack<T>);
  public func push<T>(s : Stack<T>, x : T) : Stack<T> { ?(x, s) };
  public func pop<T>(s : Stack<T>) : ?(T, Stack<T>) { s };
  public func size<T>(s : Stack<T>) : Nat { var n = 0; var c = s; label l loop { switch c { case (?(_, r)) { n += 1; c := r }; case null break l } }; n };
};
var s : Stack.Stack<Text> = null;
s := Stack.push(s, "a");
s := Stack.push(s, "b");
Debug.print(debug_show (Stack.size(s), s));
switch (Stack.pop(s)) { case (?(top, rest)) Debug.print(top # " " # debug_show Stack.size(rest)); case null {} };
