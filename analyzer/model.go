// Package analyzer parses TypeScript and TSX source files with tree-sitter and
// extracts what the rest of oracle needs as plain data: the functions a module
// defines, their parameters, every call site in their bodies (with what the
// callee's root identifier is lexically bound to), and the module's imports,
// exports and top-level declarations.
//
// The analyzer knows nothing of other files: resolving a specifier to a module
// and an import to its defining declaration is the callgraph package's job.
//
// Positions are 1-based. Columns count UTF-16 code units, as TypeScript and
// editors do, so that `line:col` agrees with the compiler.
package analyzer

// Lang is the grammar a file is parsed with, chosen by its extension.
type Lang string

const (
	LangTS  Lang = "ts"  // .ts, .mts, .cts
	LangTSX Lang = "tsx" // .tsx
)

// File is everything extracted from one source file.
type File struct {
	Path      string      // the path the caller gave, slash-separated
	Lang      Lang        //
	Functions []*Function // in source order
	Imports   []Import    // static imports and `import x = require()`, in source order
	Exports   []Export    // every export form, in source order
	Decls     []Decl      // top-level declarations, in source order
	// DynamicImports lists every import("m") with a literal specifier anywhere
	// in the file, in source order.
	DynamicImports []DynamicImport
	// OpaqueLoads are the loads whose module is not written down, anywhere
	// in the file, in source order: require(...), import() of anything but a
	// string literal, import.meta.glob(...). Read from the syntax tree, never
	// from text inside strings or comments.
	OpaqueLoads []OpaqueLoad
	// Globs lists every import.meta.glob (and the old import.meta.globEager)
	// whose patterns and options are written down, in source order: vite
	// expands them against the file system (callgraph reads them as
	// imports). One it cannot read is an OpaqueLoad instead.
	Globs  []Glob
	Errors []ParseError
	// Classes lists every class (top-level, nested, class expressions bound
	// to a name) and top-level interface of the file, in source order.
	Classes []*Class
	// Mocks lists the vi.mock and vi.doMock calls of the file, in source order.
	Mocks []Mock
	// TypeAliases lists the type aliases of the file (`type A<T> = ...`),
	// in source order: what a member call through a declared type needs.
	TypeAliases []*TypeAlias
	// TopCalls are the calls in no graph function: module-level code and the
	// anonymous callbacks it passes (a test file's describe/it bodies), in
	// source order. Their statement ranges are zero.
	TopCalls []Call
}

// Decl is a top-level declaration that binds a name in module scope.
type Decl struct {
	Name     string
	Kind     DeclKind
	Line     int
	Function *Function  // set when the declaration is a function (declaration, or const bound to an arrow/function expression)
	Keys     []string   // a variable bound to an object literal: its property names, in source order
	Spreads  []string   // a variable bound to an object literal: the identifiers spread into it (`{ ...a }`), in source order
	Values   []string   // a variable bound to an object literal: for each of Keys, the identifier its value is (`a: b`, shorthand `b`), or ""
	Class    *Class     // DeclClass: its members; also set for `const C = class {}`
	Alias    *TypeAlias // DeclType of a type alias
	// Type is a variable's declared type as written: its annotation, or the
	// class of the `new X()` it is initialized with; "" when neither.
	Type string
	// Overloaded: a function declared with overload signatures.
	Overloaded bool
}

// TypeParam is one type parameter of a class, interface, type alias or
// function: `T extends Constraint = Default`, as written.
type TypeParam struct {
	Name       string
	Constraint string
	Default    string
}

// TypeAlias is a `type Name<TypeParams> = Type` declaration.
type TypeAlias struct {
	Name       string // its name path (like a Class's)
	TypeParams []TypeParam
	Type       string // as written, whitespace runs collapsed
	Line       int
}

// Class is a class or interface declaration: what a member call through a
// declared type needs.
type Class struct {
	Name      string   // the Qual of the class ("default" for an anonymous default export)
	Interface bool     // an interface declaration (its members are signatures)
	Extends   []string // the heritage: `extends B` (an interface may extend several); names as written, type arguments dropped
	// Heritage is Extends with the type arguments, as written: `B<T, X>`.
	Heritage   []string
	TypeParams []TypeParam
	Members    []Member // in source order
	Line       int
}

// Member is a method, accessor, field or constructor of a class, or a
// member signature of an interface.
type Member struct {
	Name     string
	Static   bool
	Function string // the Qual of the graph function that implements it, "" for a signature or a plain field
	Type     string // a field, parameter property or property signature: its declared type as written (for a field without one, the class of the `new X()` that initializes it); a getter: its declared return type; "" when none
	Field    bool   // a field, parameter property or property signature (not a method, accessor or constructor)
	Abstract bool   // declared `abstract`
	// ThisGuard: a method whose declared return type is a type predicate on
	// this (`this is T`, `asserts this is T`): calling it narrows the object.
	ThisGuard bool
	Line      int
	// Returns is a method's (or method signature's) declared return type as
	// written, "" when none; TypeParams are the method's own.
	Returns    string
	TypeParams []TypeParam
	// Inferred is what decides the type when none is declared: for a
	// method, the value every return statement of its body returns (`this`,
	// `new X()`, a const of a known class), when they all agree; for a
	// field, its initializer (`b = this.a.child`) or, without one, its
	// only assignment in the constructor. nil when none of these.
	Inferred *Value
}

// OpaqueLoad is one load a module walk cannot follow: Kind is "require",
// "import()" (a computed specifier) or "import.meta.glob".
type OpaqueLoad struct {
	Kind string
	Line int
}

// Glob is one `import.meta.glob(patterns, options)` whose patterns are
// string literals (one, or an array of them) and whose options, when
// given, are an object literal without `base`.
type Glob struct {
	// Patterns as written, in order: a leading "!" excludes.
	Patterns []string
	// Eager: `{ eager: true }`, or import.meta.globEager: the modules load
	// with the file; otherwise each loads when its loader is called.
	Eager bool
	// Import is the `import` option: the one export taken from each module
	// ("default", a name; "" or "*" the whole module).
	Import    string
	Line      int
	StartByte uint
}

// DynamicImport is one `import("m")` expression.
type DynamicImport struct {
	Specifier string
	Names     []string // `const { a, b: c } = await import("m")`: the exports taken (a, b); nil when the module is taken whole
	Line      int
	StartByte uint // of the import("m") expression
}

// DeclKind says what a top-level declaration binds.
type DeclKind string

const (
	DeclFunction DeclKind = "function" // function declaration or const = arrow/function expression
	DeclVariable DeclKind = "variable" // any other const/let/var binding
	DeclClass    DeclKind = "class"
	DeclEnum     DeclKind = "enum"
	DeclModule   DeclKind = "namespace" // `namespace X {}` with runtime content
	DeclType     DeclKind = "type"      // interface or type alias: erased at run time
)

// FuncKind says where a function is declared.
type FuncKind string

const (
	FuncTop         FuncKind = "function"    // at the top of the module
	FuncNested      FuncKind = "nested"      // a named function in another function's body
	FuncNamespace   FuncKind = "namespace"   // a function of a `namespace X { }` body
	FuncMethod      FuncKind = "method"      // a class method (instance or static)
	FuncGetter      FuncKind = "getter"      // `get x()`
	FuncSetter      FuncKind = "setter"      // `set x(v)`
	FuncField       FuncKind = "field"       // `x = () => {}`: a class field holding a function
	FuncConstructor FuncKind = "constructor" // `constructor()`
	FuncStatic      FuncKind = "static"      // `static { }`: a class static block, `Class.<static>`
	FuncFields      FuncKind = "fields"      // a class's instance field initializers (`count = 0; #cache = new Map()`), run at construction: `Class.<fields>`
	FuncProperty    FuncKind = "property"    // module-level code: an object literal's method or property holding a function
	FuncExpression  FuncKind = "expression"  // module-level code: any other function expression or arrow (passed to a call, ...)
)

// Function is a function of the module: a top-level function, a named
// function nested in another function's body (at any depth), a function of a
// namespace, or a class member with a body (method, accessor, constructor,
// or a field holding an arrow or function expression).
//
// Qual is its name in graph ids (`<file>#<Qual>`): the path of enclosing
// names joined by dots. `processItem` (top level), `default` (the default
// export), `processItem.flush` (nested), `util.joinValues` (namespace),
// `OrderService.finalize` (method; a class's own name path comes first:
// `outer.Local.m`, `default.m` for `export default class {}`),
// `Store.value` (getter), `Store.value=` (setter), `Foo.constructor`. A
// second function with the same path in one file gets `~2`, the third `~3`.
// File.Functions holds them all, in source order of their start; consumers
// that want module-level functions only check Kind == FuncTop.
type Function struct {
	Name     string   // declared name; "default" for an anonymous default export; for members the member name
	Qual     string   // the id name (see above)
	Kind     FuncKind //
	Class    string   // members: the Qual of the class
	Static   bool     // members: `static`
	Parent   *Function
	Exported bool // top-level functions: exported by any form; members: their class is exported
	Default  bool // the module's default export (declared by `export default function`; `export default f` sets only Exported)
	Async    bool
	Line     int // of the declaration's start
	Column   int
	Params   []Param
	Calls    []Call // every call in the body, nested closures included, in source order
	// HeldBy is, for a function value of module-level code (FuncProperty,
	// FuncExpression), the top-level variable whose initializer holds it
	// without calling it (an object literal's method, a callback registered
	// with `.action(cb)`): it runs only when that variable is used, not when
	// the module loads. "" when loading the module may run it (see heldBy).
	HeldBy string
	// Returns is the declared return type as written ("" when none);
	// TypeParams are the function's own type parameters.
	Returns    string
	TypeParams []TypeParam

	StartByte, EndByte         uint // the whole declaration (statement)
	BodyStartByte, BodyEndByte uint // the body: statement block, or expression body of an arrow
}

// Param is one formal parameter.
type Param struct {
	Name     string   // the identifier, or "" for a destructuring pattern
	Bound    []string // every name the parameter binds (one for an identifier; all of a pattern's names)
	Optional bool     // `x?: T` or has a default value
	Rest     bool
	Line     int
	Type     string // the declared type as written (whitespace runs collapsed), "" when none
}

// Call is one call expression (`f()`, `a.b()`, `a?.b()`, `(await import("m")).f()`)
// or `new X()` (New set). Tagged templates are not calls here.
type Call struct {
	Text   string // the callee as written, whitespace runs collapsed to one space: "enrichItem", "audit.write"
	Line   int    // of the call expression's start (`new` for New)
	Column int
	Nested bool // inside a function nested in the function (closure, callback)
	New    bool // `new X()`: a call of X's constructor
	Callee Callee

	StartByte, EndByte             uint // the call expression
	CalleeStartByte, CalleeEndByte uint // the callee expression
	StatementStartByte             uint // the statement that contains the call, within the function body
	StatementEndByte               uint
}

// CalleeKind is the syntactic shape of a callee.
type CalleeKind string

const (
	CalleeIdent         CalleeKind = "ident"          // f()
	CalleeMember        CalleeKind = "member"         // a.b.c() with an identifier root; properties are names or string literals (a["b"]())
	CalleeDynamicMember CalleeKind = "dynamic-member" // (await import("m")).f()
	CalleeThis          CalleeKind = "this"           // this.m(), this.dep.m(): Path holds m / dep, m
	CalleeOther         CalleeKind = "other"          // anything else: computed member, call result, `super.x()`...
)

// Callee describes what is called.
type Callee struct {
	Kind      CalleeKind
	Root      string   // CalleeIdent, CalleeMember: the root identifier
	Path      []string // CalleeMember, CalleeDynamicMember: property names after the root
	Specifier string   // CalleeDynamicMember: the import() specifier
	Binding   Binding  // CalleeIdent, CalleeMember: what Root is bound to at the call site
	// CalleeThis: the Qual of the class `this` is an instance of (or the
	// class itself when ThisStatic); "" when `this` is not a class's (a
	// plain function's own `this`).
	ThisClass  string
	ThisStatic bool
	// ThisType, when ThisClass is "", is the declared type `this` has, as
	// written: the explicit `this: T` parameter of the enclosing function,
	// or the declared type of the object literal whose method encloses the
	// call (the return type of the function returning it, a `satisfies T`,
	// a typed variable; ThisType<X> in it gives X). ThisFrom says which.
	ThisType string
	ThisFrom string
	// Chain is set, with Kind CalleeOther, for a callee that reaches the
	// member called through a call's result or an element access
	// (`this.nullable().optional()`, `this.#tries[method].insert()`,
	// `cache.get(k)!.set()`): every step from the root (`this`, with
	// ThisClass... set as for CalleeThis; or an identifier, with Root and
	// Binding set) to the member called.
	Chain *Value
}

// Value is an expression whose type the graph may follow: property reads,
// calls and element accesses from a root.
type Value struct {
	// Root is "this", or the identifier the chain starts from; "" when the
	// root is a value of the type Type (`new X()`, a const of declared type).
	Root    string
	Type    string
	Binding Binding // an identifier root: what it is bound to
	Steps   []Step
}

// StepKind is one step of a Value.
type StepKind string

const (
	StepMember StepKind = "member" // .name, ?.name, ["name"]
	StepCall   StepKind = "call"   // (...): a call of what the steps before give
	StepIndex  StepKind = "index"  // [expr] with a key that is not a literal
)

// Step is one step of a Value.
type Step struct {
	Kind     StepKind
	Name     string   // StepMember
	TypeArgs []string // StepCall: explicit type arguments, as written
}

// BindingKind says where the root identifier of a callee is declared, as seen
// lexically from the call site.
type BindingKind string

const (
	// BindModule: not declared anywhere between the call site and module scope;
	// look it up among the module's imports and top-level declarations.
	BindModule BindingKind = "module"
	// BindLocal: declared by a parameter or a local declaration of the function
	// (or of a closure around the call site). It shadows any import of that name.
	BindLocal BindingKind = "local"
	// BindDynamicNamed: `const { a } = await import("m")` or `const { a: b } = ...`
	// (Imported is "a").
	BindDynamicNamed BindingKind = "dynamic-named"
	// BindDynamicNamespace: `const m = await import("m")`.
	BindDynamicNamespace BindingKind = "dynamic-namespace"
)

// Binding is the declaration a callee's root identifier refers to.
type Binding struct {
	Kind      BindingKind
	Specifier string // dynamic bindings: the import() specifier
	Imported  string // BindDynamicNamed: the export name taken from the module
	Detail    string // BindLocal: what declares it, e.g. "parameter enrichItem" or "const enrichItem"
	Line      int    // of the declaring binding, when inside the function
	Function  string // BindLocal: the Qual of the function the name declares (a nested function), else ""
	Class     string // BindLocal: the Qual of the class the name declares (a class in a function), else ""
	// Type is BindLocal's declared type as written: a parameter's or a
	// variable's annotation, or the class of the `new X()` a variable is
	// initialized with (a type parameter of an enclosing declaration is
	// replaced by its constraint); "" when none.
	Type string
	// Narrowed: the name is the left operand of an `instanceof` in the
	// function: its type there may be another than the declared one.
	Narrowed bool
}

// ImportKind is the form of a static import.
type ImportKind string

const (
	ImportNamed      ImportKind = "named"       // import { a } / { a as b }
	ImportDefault    ImportKind = "default"     // import x from
	ImportNamespace  ImportKind = "namespace"   // import * as ns from
	ImportEquals     ImportKind = "require"     // import x = require("m")
	ImportSideEffect ImportKind = "side-effect" // import "m"
)

// Import is one binding introduced by a static import (a statement with
// several specifiers yields several Imports).
type Import struct {
	Kind      ImportKind
	Local     string // the local name; "" for a side-effect import
	Imported  string // ImportNamed: the exported name; ImportDefault: "default"
	Specifier string
	TypeOnly  bool // `import type ...` or `import { type a }`: erased at run time
	Line      int
	// Unused: the local name is read nowhere in the file's code (only in
	// types, or not at all), so the import takes nothing by name. Never
	// set in a file with JSX (a JSX factory is read implicitly) or
	// decorators (their metadata may read a type's class).
	Unused bool
	// Members, for a namespace import every read of which is `ns.name`,
	// are the names read, sorted; nil when it is read otherwise (passed
	// whole, `ns[k]`) or not at all, and under Unused's exceptions.
	Members []string
}

// ExportKind is the form of an export.
type ExportKind string

const (
	// ExportLocal exports a binding of this module: `export function f`,
	// `export const`, `export { a as b }`, `export default f`, `export default function`.
	ExportLocal ExportKind = "local"
	// ExportFrom re-exports one name: `export { a as b } from "m"`, `export { default } from "m"`.
	ExportFrom ExportKind = "from"
	// ExportAll is `export * from "m"`.
	ExportAll ExportKind = "all"
	// ExportAllAs is `export * as ns from "m"`.
	ExportAllAs ExportKind = "all-as"
	// ExportExpression is `export default <expression>` where the expression is not
	// an identifier or a named function/class (nothing to resolve further).
	ExportExpression ExportKind = "expression"
)

// Export is one exported name.
type Export struct {
	Kind      ExportKind
	Name      string // the exported name; "default" for the default export; "" for ExportAll
	Local     string // ExportLocal: the local binding; ExportFrom: the name imported from Specifier
	Specifier string // ExportFrom, ExportAll, ExportAllAs
	TypeOnly  bool   // `export type { }`, `export { type a }`, `export type * from`, or an interface/type alias
	Line      int
}

// ParseError is a place tree-sitter could not parse.
type ParseError struct {
	Line    int
	Column  int
	Message string // e.g. "syntax error near `)`", "missing `;`"
}

// CallSites returns the call sites of fn whose callee is written text
// ("enrichItem", "this.audit"), in source order; `new` expressions are not
// call sites of a manifest's wrap or preserve. It is the one matcher gen,
// apply and prove use.
func (fn *Function) CallSites(text string) []*Call {
	var sites []*Call
	for i := range fn.Calls {
		if !fn.Calls[i].New && fn.Calls[i].Text == text {
			sites = append(sites, &fn.Calls[i])
		}
	}
	return sites
}

// Mock is a `vi.mock(...)` or `vi.doMock(...)` (or `vitest.mock`, recorded as
// vi.mock) anywhere in a file (a test
// file's module mocks: what audit's related-test rule reads).
type Mock struct {
	Call      string // "vi.mock" or "vi.doMock" (jest's: "jest.mock" or "jest.doMock")
	Specifier string // the module mocked, as written
	File      string // "" (the file holding it); set where a mock is applied to other files (vitest setupFiles)
	Line      int
	// Node is the call expression (vi.mock(...), or the vi.spyOn(...) of a
	// stub) in the tree ParseSyntax returns for the file holding it.
	Node    Node
	Factory bool // a factory is given (else vitest automocks every export)
	// FactoryStartByte, FactoryEndByte: the factory's range (zero for a
	// vi.spyOn stub). What only its code calls or imports is the test's
	// scaffolding, not code the test runs.
	FactoryStartByte, FactoryEndByte uint
	// Partial: the factory gets the original module (it calls its
	// parameter, whatever its name, or vi.importActual), so the real module
	// loads; only the exports it overrides are replaced.
	Partial bool
	// Overrides lists, for a partial mock, the exports the factory's objects
	// set (the object it returns, any object that spreads), each with
	// whether it still runs the original (`vi.fn(mod.f)`, `mod.f`, a name
	// destructured from it: the real body runs).
	Overrides []Override
}

// Override is one export a partial mock sets.
type Override struct {
	Name        string
	CallThrough bool
}
