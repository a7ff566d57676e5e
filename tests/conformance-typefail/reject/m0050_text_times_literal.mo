let line = "-";
line * 10
