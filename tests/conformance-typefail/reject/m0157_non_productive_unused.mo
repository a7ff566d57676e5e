type Loop = Loop;
1
