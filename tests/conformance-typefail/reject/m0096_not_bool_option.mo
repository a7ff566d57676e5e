let o : ?Bool = ?true;
if (o) 1 else 0
