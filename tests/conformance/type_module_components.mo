import Debug "mo:core/Debug";
module Config {
  public type Level = { #low; #high };
  public let value = null;
  public let level : Level = #high;
  public func describe(l : Level) : Text = switch l { case (#low) "low"; case (#high) "high" };
};
let c : module { value : Null; type Level = { #low; #high }; level : { #low; #high } } = Config;
Debug.print(debug_show (c.value, c.level == #high));
Debug.print(Config.describe(c.level));
