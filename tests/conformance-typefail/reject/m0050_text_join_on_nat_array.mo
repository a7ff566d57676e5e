import Text "mo:core/Text";
let xs = [1, 2, 3];
Text.join(", ", xs.vals())
