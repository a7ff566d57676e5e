import Debug "mo:core/Debug";
Debug.print(debug_show ('\u{41}', "\u{48}\u{49}", '\t' == '\u{9}'));
