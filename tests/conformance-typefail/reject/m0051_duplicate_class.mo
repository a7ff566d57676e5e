class A() { public let x = 1 };
class A() { public let x = 2 };
A().x
