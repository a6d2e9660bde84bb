package callgraph

import "testing"

// chainLib is the repository the chain cases call into.
var chainLib = map[string]string{
	"src/model.ts": `export interface LanguageModel { doGenerate(prompt: string): string }
export interface Provider { languageModel(id: string): LanguageModel }
export class Trie { run() {} insert(path: string): void {} match(path: string): Trie | undefined { return this; } }
export class Schema<T = unknown> {
  nullable(): Nullable<this> { return new Nullable(this); }
  optional(): Optional<this> { return new Optional(this); }
  describe(text: string) { this.text = text; return this; }
  text = "";
  parse(x: unknown): T { return x as T; }
}
export class Nullable<S extends Schema> extends Schema { constructor(readonly inner: S) { super(); } unwrap(): S { return this.inner; } }
export class Optional<S extends Schema> extends Schema { constructor(readonly inner: S) { super(); } }
export class Child { run() {} }
export class Sub extends Child { run() {} }
export class Parent { child = new Child(); make() { return new Child(); } local() { const p = new Parent(); return p; } }
export class Factory { static parent(): Parent { return new Parent(); } }
export const shared: Parent = new Parent();
`,
}

// TestChains: a method called on a call's result, an element access in a
// chain, a property whose type comes from its initializer: each pinned
// through what is written, never by name; what the written types do not
// decide (a union, any, an overload the arguments choose, a type argument
// the call infers, two assignments) stays unresolved with the reason.
func TestChains(t *testing.T) {
	cases := []struct {
		name string
		src  string
		fn   string
		want []string
	}{
		{
			name: "a method of a call's result: the callee's declared return type, this and generic wrappers of this",
			src: `import { type Provider, Schema } from "./model";
export class Registry {
  private providers: Record<string, Provider> = {};
  schema = new Schema<string>();
  getProvider(id: string): Provider { return this.providers[id]; }
  route(id: string) {
    this.getProvider(id).languageModel(id).doGenerate("x");
    this.schema.nullable().optional();
    this.schema.nullable().unwrap().parse("x");
    this.schema.describe("a").nullable();
  }
}`,
			fn: "src/app.ts#Registry.route",
			want: []string{
				"this.getProvider(id).languageModel(id).doGenerate -> src/model.ts#LanguageModel.doGenerate (member)",
				"this.getProvider(id).languageModel -> src/model.ts#Provider.languageModel (member)",
				"this.getProvider -> src/app.ts#Registry.getProvider (member)",
				"this.schema.nullable().optional -> src/model.ts#Schema.optional (member)", // Nullable<this> extends Schema
				"this.schema.nullable -> src/model.ts#Schema.nullable (member)",
				"this.schema.nullable().unwrap().parse -> src/model.ts#Schema.parse (member)", // unwrap(): S, S = this = Schema<string>
				"this.schema.nullable().unwrap -> src/model.ts#Nullable.unwrap (member)",
				"this.schema.nullable -> src/model.ts#Schema.nullable (member)",
				"this.schema.describe(\"a\").nullable -> src/model.ts#Schema.nullable (member)", // describe returns this: inferred
				"this.schema.describe -> src/model.ts#Schema.describe (member)",
			},
		},
		{
			name: "without a declared return type: return this, new X(), a const of a known class; roots: a typed parameter, new X(), a static method, a typed module variable",
			src: `import { Parent, Factory, shared } from "./model";
export function use(p: Parent) {
  p.make().run();
  p.local().make().run();
  new Parent().make().run();
  Factory.parent().child.run();
  shared.make().run();
}`,
			fn: "src/app.ts#use",
			want: []string{
				"p.make().run -> src/model.ts#Child.run (member)",
				"p.make -> src/model.ts#Parent.make (member)",
				"p.local().make().run -> src/model.ts#Child.run (member)",
				"p.local().make -> src/model.ts#Parent.make (member)",
				"p.local -> src/model.ts#Parent.local (member)",
				"new Parent().make().run -> src/model.ts#Child.run (member)",
				"new Parent().make -> src/model.ts#Parent.make (member)",
				"Parent -> unresolved: class src/model.ts#Parent declares no constructor…",
				"Factory.parent().child.run -> src/model.ts#Child.run (member)",
				"Factory.parent -> src/model.ts#Factory.parent (member)",
				"shared.make().run -> src/model.ts#Child.run (member)",
				"shared.make -> src/model.ts#Parent.make (member)",
			},
		},
		{
			name: "a union or any return type, overloads with different return types, a type argument the call infers, mixed or async returns stay unresolved",
			src: `import { Trie, Child, Sub } from "./model";
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
}`,
			fn: "src/app.ts#R.go",
			want: []string{
				"this.maybe().run -> unresolved: the type of this.maybe(): Child | Sub is a union",
				"this.maybe -> src/app.ts#R.maybe (member)",
				"this.loose().run -> unresolved: the type of this.loose(): any: not a class…",
				"this.loose -> src/app.ts#R.loose (member)",
				"this.overloaded(\"a\").insert -> unresolved: R.overloaded is overloaded with different return types…",
				"this.overloaded -> src/app.ts#R.overloaded (member)",
				"this.same(\"a\").insert -> src/model.ts#Trie.insert (member)",
				"this.same -> src/app.ts#R.same (member)",
				"this.pick(() => new Sub()).run -> unresolved: the type of this.pick(): the type parameter T of R.pick is inferred at the call",
				"this.pick -> src/app.ts#R.pick (member)",
				"Sub -> unresolved: class src/model.ts#Sub declares no constructor…",
				"this.pick<Child>(() => new Sub()).run -> src/model.ts#Child.run (member)",
				"this.pick -> src/app.ts#R.pick (member)",
				"Sub -> unresolved: class src/model.ts#Sub declares no constructor…",
				"this.mixed(true).run -> unresolved: R.mixed declares no return type (and its returns are not all this, new X() or a const of a known class)",
				"this.mixed -> src/app.ts#R.mixed (member)",
				"this.later().then -> unresolved: R.later declares no return type…",
				"this.later -> src/app.ts#R.later (member)",
			},
		},
		{
			name: "element access: Record, an alias of one, T[], Array, ReadonlyArray, an index signature, Map and WeakMap get, a Record's property by name",
			src: `import { type Provider, Trie, Parent, Child } from "./model";
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
}`,
			fn: "src/app.ts#Router.route",
			want: []string{
				"this.#tries[method].insert -> src/model.ts#Trie.insert (member)",
				"this.#tries[method].match(\"/\")!.insert -> src/model.ts#Trie.insert (member)",
				"this.#tries[method].match -> src/model.ts#Trie.match (member)",
				"this.aliased[method].insert -> src/model.ts#Trie.insert (member)",
				"this.list[i].insert -> src/model.ts#Trie.insert (member)",
				"this.arr[i].insert -> src/model.ts#Trie.insert (member)",
				"this.ro[i].insert -> src/model.ts#Trie.insert (member)",
				"this.bag[method].insert -> src/model.ts#Trie.insert (member)",
				"this.cache.get(method)!.insert -> src/model.ts#Trie.insert (member)",
				"this.cache.get -> unresolved: the declared type Map<string, Trie> of this.cache: Map: not a class…",
				"this.weak.get(key)?.child.run -> src/model.ts#Child.run (member)",
				"this.weak.get -> unresolved: the declared type WeakMap<object, Parent> of this.weak: WeakMap: not a class…",
				"this.providers.openai.languageModel -> src/model.ts#Provider.languageModel (member)",
				"this.tuple[i].run -> unresolved: this.tuple[…]: the type of this.tuple declares no element type…",
				"this.anyList[i].insert -> unresolved: the type of this.anyList[…]: any: not a class…",
				"this.mixed[i].run -> unresolved: the type of this.mixed[…]: Trie | Child is a union",
			},
		},
		{
			name: "a property whose type comes from its initializer through another property, or from its one constructor assignment",
			src: `import { Parent, Child, Sub } from "./model";
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
}`,
			fn: "src/app.ts#Holder.go",
			want: []string{
				"this.viaInit.run -> src/model.ts#Child.run (member)",
				"this.viaCall.run -> src/model.ts#Child.run (member)",
				"this.viaCtor.run -> src/model.ts#Child.run (member)",
				"this.made.run -> src/model.ts#Child.run (member)",
				"this.twice.run -> unresolved: this.twice has no declared type",           // Child | Sub
				"this.inCallback.run -> unresolved: this.inCallback has no declared type", // assigned in a callback too
				"this.parent.child.run -> src/model.ts#Child.run (member)",
			},
		},
		{
			name: "a member of Pick<T, K> or Omit<T, K> is T's",
			src: `import { Parent } from "./model";
interface Options { onOpen?: () => void; parent: Parent; other(): void }
export class Ws {
  callbacks: Pick<Options, "onOpen" | "parent">;
  rest: Omit<Options, "onOpen">;
  constructor(o: Options) { this.callbacks = o; this.rest = o; }
  go() { this.callbacks.onOpen?.(); this.callbacks.parent.make(); this.rest.other(); }
}`,
			fn: "src/app.ts#Ws.go",
			want: []string{
				"this.callbacks.onOpen -> src/app.ts#Options.onOpen (member)",
				"this.callbacks.parent.make -> src/model.ts#Parent.make (member)",
				"this.rest.other -> src/app.ts#Options.other (member)",
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checkCalls(t, merge(chainLib, map[string]string{"src/app.ts": tc.src}), tc.fn, tc.want)
		})
	}
}
