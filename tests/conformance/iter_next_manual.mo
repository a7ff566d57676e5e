import Debug "mo:core/Debug";
let it = [1, 2].vals();
Debug.print(debug_show (it.next()));
Debug.print(debug_show (it.next()));
Debug.print(debug_show (it.next()));
