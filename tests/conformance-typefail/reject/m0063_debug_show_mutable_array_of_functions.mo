let fs = [var func () : Nat { 1 }];
debug_show fs
