// configuration records with defaults merged by `with`, kept in an object's `public var`
import Debug "mo:core/Debug";
type Config = { name : Text; verbose : Bool; level : Nat; tags : [Text] };
let defaults : Config = { name = "app"; verbose = false; level = 1; tags = [] };
object settings {
  public var current = defaults;
  public func update(f : Config -> Config) { current := f(current) };
};
settings.update(func c = { c with verbose = true });
settings.update(func c = { c with level = c.level + 2; tags = ["x"] });
Debug.print(debug_show settings.current);
settings.current := { defaults with name = "reset" };
Debug.print(debug_show settings.current);
