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
export class Factory { static parent(): Parent { return new Parent(); } static make = (): Child => new Child(); }
export const shared: Parent = new Parent();
export function makeParent(): Parent { return new Parent(); }
export function untyped() { return new Child(); }
export function pick<T extends Child>(): T { return null!; }
export function overloadedMake(x: string): Child;
export function overloadedMake(x: number): Sub;
export function overloadedMake(x: unknown): Child { return new Child(); }
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
			name: "a function's result: its declared return type, through a namespace import or an object literal's spread; a static arrow field's",
			src: `import * as m from "./model";
import { makeParent, untyped, pick, overloadedMake, Factory } from "./model";
const z = { ...m };
export function roots() {
  makeParent().make().run();
  m.makeParent().child.run();
  z.makeParent().make();
  Factory.make().run();
  untyped().run();
  pick<m.Child>().run();
  pick().run();
  overloadedMake("a").run();
}`,
			fn: "src/app.ts#roots",
			want: []string{
				"makeParent().make().run -> src/model.ts#Child.run (member)",
				"makeParent().make -> src/model.ts#Parent.make (member)",
				"makeParent -> src/model.ts#makeParent (import)",
				"m.makeParent().child.run -> src/model.ts#Child.run (member)",
				"m.makeParent -> src/model.ts#makeParent (namespace)",
				"z.makeParent().make -> src/model.ts#Parent.make (member)",
				"z.makeParent -> src/model.ts#makeParent (member)",
				"Factory.make().run -> src/model.ts#Child.run (member)",
				"Factory.make -> src/model.ts#Factory.make (member)",
				"untyped().run -> unresolved: untyped(): src/model.ts#untyped declares no return type",
				"untyped -> src/model.ts#untyped (import)",
				"pick<m.Child>().run -> src/model.ts#Child.run (member)",
				"pick -> src/model.ts#pick (import)",
				"pick().run -> unresolved: the type of pick(): the type parameter T of pick is inferred at the call",
				"pick -> src/model.ts#pick (import)",
				"overloadedMake(\"a\").run -> unresolved: overloadedMake(): src/model.ts#overloadedMake is overloaded…",
				"overloadedMake -> src/model.ts#overloadedMake (import)",
			},
		},
		{
			name: "a type assertion's type: (x as T).m()",
			src: `import { Parent, Child, Sub } from "./model";
export function casts(x: unknown, p: Parent) {
  (x as Parent).make().run();
  (x as unknown as Child).run();
  (p as any).run();
  (p.child as Child | Sub).run();
}`,
			fn: "src/app.ts#casts",
			want: []string{
				"(x as Parent).make().run -> src/model.ts#Child.run (member)",
				"(x as Parent).make -> src/model.ts#Parent.make (member)",
				"(x as unknown as Child).run -> src/model.ts#Child.run (member)",
				"(p as any).run -> unresolved: the type of (… as any): any: not a class…",
				"(p.child as Child | Sub).run -> unresolved: the type of (… as Child | Sub): Child | Sub is a union",
			},
		},
		{
			name: "new X() without type arguments: X's type parameters are inferred from the arguments, not followed",
			src: `import { Child, Sub } from "./model";
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
}`,
			fn: "src/app.ts#Boxes.go",
			want: []string{
				"new Box(new Sub()).get().run -> unresolved: the type of new Box().get(): the type argument T of Box is inferred from the arguments of new Box()",
				"new Box(new Sub()).get -> src/app.ts#Box.get (member)",
				"Box -> src/app.ts#Box.constructor (member)",
				"Sub -> unresolved: class src/model.ts#Sub declares no constructor…",
				"new Box<Child>(new Sub()).get().run -> src/model.ts#Child.run (member)",
				"new Box<Child>(new Sub()).get -> src/app.ts#Box.get (member)",
				"Box -> src/app.ts#Box.constructor (member)",
				"Sub -> unresolved: class src/model.ts#Sub declares no constructor…",
				"this.inferred.get().run -> unresolved: the type of this.inferred.get(): the type argument T of Box is inferred…",
				"this.inferred.get -> src/app.ts#Box.get (member)",
				"this.explicit.get().run -> src/model.ts#Child.run (member)",
				"this.explicit.get -> src/app.ts#Box.get (member)",
				"this.inferred.item.run -> unresolved: the declared type T of this.inferred.item: the type argument T of Box is inferred…", // the checker: Sub.run
				"this.inferred.get -> src/app.ts#Box.get (member)",
			},
		},
		{
			name: "the last member of an intersection: the one part that declares it",
			src: `import { type Provider, type LanguageModel } from "./model";
interface WithVideo { videoModel?(id: string): LanguageModel }
interface Both { languageModel(id: string): LanguageModel }
export class Reg {
  get(id: string): Provider & WithVideo { return null!; }
  both(): Provider & Both { return null!; }
  loose(): Provider & Record<string, unknown> { return null!; }
  go(id: string) {
    this.get(id).languageModel(id);
    this.get(id).videoModel?.(id);
    this.both().languageModel(id);
    this.loose().languageModel(id);
  }
}`,
			fn: "src/app.ts#Reg.go",
			want: []string{
				"this.get(id).languageModel -> src/model.ts#Provider.languageModel (member)",
				"this.get -> src/app.ts#Reg.get (member)",
				"this.get(id).videoModel -> src/app.ts#WithVideo.videoModel (member)",
				"this.get -> src/app.ts#Reg.get (member)",
				"this.both().languageModel -> unresolved: this.both().languageModel is declared by more than one part of the intersection…",
				"this.both -> src/app.ts#Reg.both (member)",
				"this.loose().languageModel -> unresolved: the type of this.loose(): Provider & Record<string, unknown> is an intersection",
				"this.loose -> src/app.ts#Reg.loose (member)",
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
