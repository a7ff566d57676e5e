import Debug "mo:core/Debug";
Debug.print("héllo wörld ☃");
Debug.print(debug_show "日本語");
Debug.print(debug_show '☃');
