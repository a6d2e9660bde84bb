import { Trie, Child, Sub } from "./model";
export class R {
  maybe(): Child | Sub { return new Sub(); }
  loose(): any { return 1; }
  overloaded(x: string): Trie;
  overloaded(x: number): Child;
  overloaded(x: unknown): Trie | Child { return new Trie(); }
  same(x: string): Trie;
  same(x: number): Trie;
  same(x: unknown): Trie { return new Trie(); }
  pick<T extends Child>(make: () => T): T { return make(); }
  mixed(flag: boolean) { if (flag) return new Child(); return new Trie(); }
  async later() { return new Child(); }
  go() {
    this.maybe().run();
    this.loose().run();
    this.overloaded("a").insert("/");
    this.same("a").insert("/");
    this.pick(() => new Sub()).run();
    this.pick<Child>(() => new Sub()).run();
    this.mixed(true).run();
    this.later().then();
  }
}
