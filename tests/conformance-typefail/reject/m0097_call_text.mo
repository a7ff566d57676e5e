let t = "abc";
t("x")
