// a class whose instances hold objects made by another class, reached through fields
import Debug "mo:core/Debug";
class Engine() { public var rpm = 0; public func rev(by : Nat) { rpm += by } };
class Car(name : Text) {
  public let engine : Engine = Engine();
  public var km = 0;
  public func drive(d : Nat) { km += d; engine.rev(d * 100) };
  public func show() : Text { name # " " # debug_show (km, engine.rpm) };
};
let c = Car("mini");
c.drive(3);
c.engine.rpm -= 50;
c.engine.rev(1);
Debug.print(c.show());
