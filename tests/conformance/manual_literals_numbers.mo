// Manual, "Literals": numbers in decimal, hex, with underscores; floats; chars; text escapes.
import Debug "mo:core/Debug";
Debug.print(debug_show (0x1F, 0xff_ff, 1_000_000, 0));
Debug.print(debug_show (1.5, 1e3, 2.5e-3, 0.1 + 0.2, 1_000.25));
Debug.print(debug_show ('a', '\n', '\u{41}', '\'', '\\'));
Debug.print(debug_show ("tab\there", "quote\"d", "\u{1F600}", "back\\slash"));
Debug.print(debug_show (-0x10 : Int, +7, -0));
