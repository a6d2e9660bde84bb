export interface LanguageModel { doGenerate(prompt: string): string }
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
