import { type Provider, Trie, Parent, Child } from "./model";
type Tries = Record<string, Trie>;
export class Router {
  #tries: Record<string, Trie> = {};
  aliased: Tries = {};
  list: Trie[] = [];
  arr: Array<Trie> = [];
  ro: ReadonlyArray<Trie> = [];
  bag: { [key: string]: Trie } = {};
  cache = new Map<string, Trie>();
  weak: WeakMap<object, Parent> = new WeakMap();
  providers: Record<string, Provider> = {};
  tuple: [Trie, Child] = [new Trie(), new Child()];
  anyList: any[] = [];
  mixed: (Trie | Child)[] = [];
  route(method: string, i: number, key: object) {
    this.#tries[method].insert("/");
    this.#tries[method].match("/")!.insert("/");
    this.aliased[method].insert("/");
    this.list[i].insert("/");
    this.arr[i].insert("/");
    this.ro[i].insert("/");
    this.bag[method].insert("/");
    this.cache.get(method)!.insert("/");
    this.weak.get(key)?.child.run();
    this.providers.openai.languageModel("m");
    this.tuple[i].run();
    this.anyList[i].insert("/");
    this.mixed[i].run();
  }
}
