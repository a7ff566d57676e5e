import Text "mo:core/Text";
Text.reverseWords("a b")
