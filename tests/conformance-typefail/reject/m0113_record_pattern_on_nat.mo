let { a } = 5;
a
