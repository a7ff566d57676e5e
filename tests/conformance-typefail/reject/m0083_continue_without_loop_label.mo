var i = 0;
while (i < 3) {
  i += 1;
  continue loop1;
};
i
