let b : Blob = "\01\02";
let t : Text = b;
t
