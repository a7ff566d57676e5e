// mo:core Text functions: strip/trim by every kind of pattern (core's quirks included),
// folds and maps over characters, compareWith, UTF-8, var arrays, comparisons.
import Debug "mo:core/Debug";
import Text "mo:core/Text";
import Char "mo:core/Char";
import Nat32 "mo:core/Nat32";
import Blob "mo:core/Blob";
import Iter "mo:core/Iter";

func show(what : Text, t : Text) { Debug.print(what # " " # t) };

let pats : [(Text, Text.Pattern)] = [
  ("#char 'a'", #char 'a'),
  ("#text \"ab\"", #text "ab"),
  ("#text \"aba\"", #text "aba"),
  ("#text \"\"", #text ""),
  ("#predicate digit", #predicate(func(c : Char) : Bool = Char.isDigit(c))),
];
let texts = ["", "a", "ab", "aab", "abab", "ababa", "xab", "abx", "abxab", "aXa", "12ab34", "xxa", "aaa", "abaaba", "bab", "aab aab", "1a1"];
for ((pn, p) in pats.vals()) {
  for (t in texts.vals()) {
    show(
      debug_show t # " " # pn,
      debug_show (Text.stripStart(t, p), Text.stripEnd(t, p), Text.trimStart(t, p), Text.trimEnd(t, p), Text.trim(t, p))
    )
  }
};

// a predicate sees the characters core shows it, in core's order
var seen = "";
let spy = #predicate(func(c : Char) : Bool { seen #= Char.toText(c); c == ' ' });
func spied(what : Text, r : Text) { show(what, debug_show r # " saw " # debug_show seen); seen := "" };
spied("trim", Text.trim("  ab c  ", spy));
spied("trimStart", Text.trimStart("  ab c  ", spy));
spied("trimEnd", Text.trimEnd("  ab c  ", spy));
spied("stripEnd", switch (Text.stripEnd("ab ", spy)) { case (?t) t; case null "null" });
spied("stripStart", switch (Text.stripStart(" ab", spy)) { case (?t) t; case null "null" });

show("foldLeft", debug_show (Text.foldLeft<Nat>("héllo", 0, func(n, c) = n + Nat32.toNat(Char.toNat32(c)))));
show("foldLeft order", Text.foldLeft<Text>("abc", "", func(acc, c) = Char.toText(c) # acc));
show("map", Text.map("Hello, wörld", func c = if (c == 'o') '0' else if (c == 'l') 'L' else c));
show("flatMap", Text.flatMap("a-b", func c = if (c == '-') "" else Char.toText(c) # Char.toText(c)));
show("flatMap empty", debug_show (Text.flatMap("", func c = "x")));

func byCode(a : Char, b : Char) : { #less; #equal; #greater } = Nat32.compare(Char.toNat32(a), Char.toNat32(b));
func lower(c : Char) : Char = if (Char.isUpper(c)) Char.fromNat32(Char.toNat32(c) + 32) else c;
func caseless(a : Char, b : Char) : { #less; #equal; #greater } = Char.compare(lower(a), lower(b));
show("compareWith", debug_show (
  Text.compareWith("abc", "abd", byCode),
  Text.compareWith("abc", "ab", byCode),
  Text.compareWith("ab", "abc", byCode),
  Text.compareWith("", "", byCode),
  Text.compareWith("HeLLo", "hello", caseless),
  Text.compareWith("HeLLo", "hellp", caseless),
));
var calls = 0;
ignore Text.compareWith("aaaa", "aaba", func(a, b) { calls += 1; byCode(a, b) });
show("compareWith calls", debug_show calls);

let b = Text.encodeUtf8("héllo ✓");
show("encodeUtf8", debug_show b);
show("encodeUtf8 size", debug_show (Blob.size(b), Text.size("héllo ✓")));
show("decodeUtf8", debug_show (Text.decodeUtf8(b), Text.decodeUtf8("\FF\FE"), Text.decodeUtf8(""), Text.decodeUtf8("\C3\A9")));
show("decodeUtf8 bytes", debug_show (Text.decodeUtf8(Blob.fromArray([104, 105]))));

let va = Text.toVarArray("añb");
show("toVarArray", debug_show va);
va[1] := 'n';
show("fromVarArray", Text.fromVarArray(va));
show("var empty", debug_show (Text.toVarArray(""), Text.fromVarArray([var])));

show("less", debug_show (Text.less("a", "b"), Text.less("b", "a"), Text.less("a", "a"), Text.less("", "a")));
show("lessOrEqual", debug_show (Text.lessOrEqual("a", "a"), Text.lessOrEqual("b", "a")));
show("greater", debug_show (Text.greater("ab", "a"), Text.greater("a", "ab")));
show("greaterOrEqual", debug_show (Text.greaterOrEqual("a", "a"), Text.greaterOrEqual("a", "b")));
show("notEqual", debug_show (Text.notEqual("a", "a"), Text.notEqual("a", "A")));
show("unicode order", debug_show (Text.less("z", "é"), Text.compare("é", "✓"), Text.less("\u{10000}", "\u{FFFF}")));

// contextual dot
show("dot", debug_show ("  hi  ".trimStart(#char ' '), "xxhi".stripStart(#text "x"), "abc".map(func c = if (c == 'b') 'B' else c), "ab".encodeUtf8()));
show("dot fold", debug_show ("abc".foldLeft(0, func(n : Nat, _ : Char) : Nat = n + 1)));

// the empty pattern: core's split gives empty pieces without end
show("split empty", debug_show (Iter.toArray(Iter.take(Text.split("ab", #text ""), 3)), Iter.toArray(Iter.take(Text.split("", #text ""), 2))));
show("empty pattern", debug_show (Text.contains("ab", #text ""), Text.startsWith("ab", #text ""), Text.endsWith("", #text ""), Text.replace("ab", #text "", "-")));
