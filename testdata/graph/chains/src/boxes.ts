import { Child, Sub } from "./model";
export class Box<T extends Child = Child> { constructor(readonly item: T) {} get(): T { return this.item; } }
export class Boxes {
  inferred = new Box(new Sub());
  explicit = new Box<Child>(new Sub());
  go() {
    new Box(new Sub()).get().run();
    new Box<Child>(new Sub()).get().run();
    this.inferred.get().run();
    this.explicit.get().run();
    this.inferred.item.run();
    this.inferred.get();
  }
}
