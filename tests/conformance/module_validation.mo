// a module of validators returning Result values, combined by the caller
import Debug "mo:core/Debug";
import Result "mo:core/Result";
import Text "mo:core/Text";

module Validate {
  public type Error = { #empty : Text; #tooLong : (Text, Nat) };
  public func nonEmpty(field : Text, v : Text) : Result.Result<Text, Error> {
    if (v == "") #err(#empty field) else #ok v
  };
  public func maxLen(field : Text, v : Text, n : Nat) : Result.Result<Text, Error> {
    if (v.size() > n) #err(#tooLong(field, v.size())) else #ok v
  };
  public func user(name : Text, bio : Text) : Result.Result<(Text, Text), Error> {
    switch (nonEmpty("name", name)) {
      case (#err e) #err e;
      case (#ok n) switch (maxLen("bio", bio, 10)) {
        case (#err e) #err e;
        case (#ok b) #ok((n, b));
      };
    }
  };
};

Debug.print(debug_show Validate.user("ann", "hi"));
Debug.print(debug_show Validate.user("", "hi"));
Debug.print(debug_show Validate.user("bob", "a very long biography"));
Debug.print(debug_show Result.isOk(Validate.user("c", "")));
