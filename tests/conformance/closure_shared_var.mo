import Debug "mo:core/Debug";
var log = "";
func mk(tag : Text) : () -> () { func () { log #= tag } };
let a = mk("a");
let b = mk("b");
a(); b(); a();
Debug.print(log);
