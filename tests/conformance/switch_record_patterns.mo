// record patterns with literals, nested records and bindings of several fields
import Debug "mo:core/Debug";
type Req = { method : Text; path : Text; auth : ?{ user : Text; admin : Bool } };
func route(r : Req) : Text {
  switch r {
    case ({ method = "GET"; path = "/"; auth = _ }) "home";
    case ({ method = "GET"; path; auth = null }) "public " # path;
    case ({ method = "GET"; path; auth = ?{ user; admin = false } }) user # " reads " # path;
    case ({ auth = ?{ admin = true; user }; method; path = _ }) "admin " # user # " " # method;
    case ({ method; path = _; auth = _ }) "denied " # method;
  }
};
Debug.print(route({ method = "GET"; path = "/"; auth = null }));
Debug.print(route({ method = "GET"; path = "/a"; auth = null }));
Debug.print(route({ method = "GET"; path = "/b"; auth = ?{ user = "u"; admin = false } }));
Debug.print(route({ method = "POST"; path = "/c"; auth = ?{ user = "root"; admin = true } }));
Debug.print(route({ method = "POST"; path = "/d"; auth = ?{ user = "u"; admin = false } }));
