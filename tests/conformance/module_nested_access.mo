// nested modules, reached through their full path and through a local alias
import Debug "mo:core/Debug";

module App {
  public module Config {
    public let name = "demo";
    public let retries = 3;
  };
  public module Util {
    public func retry(n : Nat, f : Nat -> Bool) : ?Nat {
      var i = 0;
      while (i < n) { if (f(i)) return ?i; i += 1 };
      null
    };
  };
};

let U = App.Util;
Debug.print(App.Config.name);
Debug.print(debug_show U.retry(App.Config.retries, func i = i == 2));
Debug.print(debug_show App.Util.retry(App.Config.retries, func i = i == 5));
