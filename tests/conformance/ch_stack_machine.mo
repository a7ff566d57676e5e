// A tiny stack machine over a variant instruction set.
import Debug "mo:core/Debug";
type Instr = { #push : Int; #add; #mul; #neg; #dup };
func run(prog : [Instr]) : [Int] {
  var stack : [Int] = [];
  for (i in prog.vals()) {
    let n = stack.size();
    stack := switch i {
      case (#push v) { let s = stack; let len = s.size(); let out = [var 0]; ignore out; if (len == 0) [v] else [s[len - 1], v] };
      case (#add) [stack[n - 2] + stack[n - 1]];
      case (#mul) [stack[n - 2] * stack[n - 1]];
      case (#neg) [-stack[n - 1]];
      case (#dup) [stack[n - 1], stack[n - 1]];
    }
  };
  stack
};
Debug.print(debug_show (run([#push 3, #push 4, #add])));
Debug.print(debug_show (run([#push 5, #dup, #mul, #neg])));
