func gen() : ?Nat { null };
for (x in gen) { ignore x };
0
