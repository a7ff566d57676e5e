// a tokenizer object walking a text with a `public var` position
import Debug "mo:core/Debug";
import Char "mo:core/Char";
import Text "mo:core/Text";
object lexer {
  var chars : [Char] = [];
  public var pos = 0;
  public func load(t : Text) { chars := Text.toArray(t); pos := 0 };
  public func next() : ?Text {
    while (pos < chars.size() and chars[pos] == ' ') pos += 1;
    if (pos >= chars.size()) return null;
    var tok = "";
    if (Char.isDigit(chars[pos])) {
      while (pos < chars.size() and Char.isDigit(chars[pos])) { tok #= Char.toText(chars[pos]); pos += 1 };
    } else { tok := Char.toText(chars[pos]); pos += 1 };
    ?tok
  };
};
lexer.load("12 + 3*45");
var toks : [Text] = [];
label l loop { switch (lexer.next()) { case (?t) Debug.print(t); case null break l } };
Debug.print(debug_show lexer.pos);
