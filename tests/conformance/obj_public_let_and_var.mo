// `public let` and `public var` fields side by side; a `let` field keeps its first value
import Debug "mo:core/Debug";
object version {
  public let major = 1;
  public var minor = 0;
  public var patch = 0;
  public func bump(kind : { #minor; #patch }) {
    switch kind { case (#minor) { minor += 1; patch := 0 }; case (#patch) patch += 1 };
  };
  public func text() : Text { debug_show major # "." # debug_show minor # "." # debug_show patch };
};
version.bump(#patch);
version.bump(#patch);
version.bump(#minor);
version.patch := 9;
Debug.print(version.text());
Debug.print(debug_show (version.major, version.minor));
