let r = { x = 1 };
do ? { r!.x }
