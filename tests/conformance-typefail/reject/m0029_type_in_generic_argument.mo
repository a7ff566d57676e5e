let xs : [Entry] = [];
xs.size()
