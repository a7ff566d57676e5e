let t : Text = 'a';
t
