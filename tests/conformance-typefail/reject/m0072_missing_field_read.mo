let user = { name = "dave"; age = 41 };
user.email
