import { Parent, Child, Sub } from "./model";
export class Holder {
  parent = new Parent();
  viaInit = this.parent.child;
  viaCall = this.parent.make();
  viaCtor;
  made;
  twice;
  inCallback;
  constructor() {
    this.viaCtor = this.parent.make();
    this.made = new Child();
    this.twice = new Child();
    if (Math.random() > 2) this.twice = new Sub();
    this.inCallback = new Child();
    [1].forEach(() => { this.inCallback = new Sub(); });
  }
  go() {
    this.viaInit.run();
    this.viaCall.run();
    this.viaCtor.run();
    this.made.run();
    this.twice.run();
    this.inCallback.run();
    this.parent.child.run();
  }
}
