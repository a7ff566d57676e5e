// `do ? {}` over optional fields of objects with `public var` options
import Debug "mo:core/Debug";
class Profile() {
  public var email : ?Text = null;
  public var age : ?Nat = null;
};
func summary(p : Profile) : ?Text = do ? { p.email! # " (" # debug_show (p.age!) # ")" };
let p = Profile();
Debug.print(debug_show summary(p));
p.email := ?"a@b.c";
Debug.print(debug_show summary(p));
p.age := ?41;
Debug.print(debug_show summary(p));
