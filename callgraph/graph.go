// Package callgraph builds the symbol-pinned call graph of a repository: every
// call site in every function, resolved to the module and export that define
// the callee, by following imports, re-exports and module resolution. Nothing
// is matched by name.
package callgraph

import "github.com/oracle-ts/oracle/analyzer"

// Via says how a call was resolved.
type Via string

const (
	ViaLocal         Via = "local"          // a declaration of the same module
	ViaImport        Via = "import"         // a named, aliased, default or require import
	ViaNamespace     Via = "namespace"      // ns.f() through `import * as ns` or `export * as ns`
	ViaDynamicImport Via = "dynamic-import" // through import()
	ViaMember        Via = "member"         // a class or interface member: this.m(), this.dep.m(), Class.m(), new Class()
	ViaExternal      Via = "external"       // a package outside the repository
	ViaUnresolved    Via = "unresolved"     // with a reason
)

// Graph is the call graph of a repository (or of the files asked for).
type Graph struct {
	Root      string          `json:"-"` // absolute
	Functions []*FunctionNode `json:"functions"`
	Notes     []Note          `json:"notes,omitempty"`  // files skipped, and why
	Errors    []FileError     `json:"errors,omitempty"` // parse errors, file:line
}

// FunctionNode is one function and its resolved calls. ID is "<file>#<name>".
type FunctionNode struct {
	ID       string     `json:"id"`
	File     string     `json:"file"` // repo-relative, slash-separated
	Name     string     `json:"name"`
	Exported bool       `json:"exported"`
	Line     int        `json:"line"`
	Kind     string     `json:"kind,omitempty"`  // nested, namespace, method, getter, setter, field, constructor; "" at the top level
	Class    string     `json:"class,omitempty"` // members: the class
	Calls    []CallEdge `json:"calls"`

	Func *analyzer.Function `json:"-"`
}

// CallEdge is one call site and what it resolves to.
type CallEdge struct {
	Text    string  `json:"text"`
	Line    int     `json:"line"`
	Column  int     `json:"column"`
	Target  *string `json:"target"`            // "<file>#<name>" of the defining declaration, or null
	Via     Via     `json:"via"`               //
	Package string  `json:"package,omitempty"` // ViaExternal
	Reason  string  `json:"reason,omitempty"`  // ViaUnresolved
	Nested  bool    `json:"nested,omitempty"`  // inside a closure in the function
	New     bool    `json:"new,omitempty"`     // `new X()`: the target is X's constructor
	// Interface names the interface whose member declaration is the target
	// (ViaMember through a field typed with an interface).
	Interface string `json:"interface,omitempty"`
	// Declared says the target is a class member without a body: "abstract"
	// (an abstract method or field), "field" (a field, called through the
	// function it holds) or "signature" (a method declared without a body).
	Declared string `json:"declared,omitempty"`
	// Through names the value of declared type the member is reached
	// through (a parameter, a variable, the declared this of an object
	// literal's method), "" when the call names a declaration.
	Through string `json:"-"`
	Export  string `json:"-"` // the name the target's module exports it under ("" for a local call)

	Call *analyzer.Call `json:"-"`
}

// Note says a file was skipped and why.
type Note struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// FileError is a parse error with its place.
type FileError struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// Build (implemented in build.go):
//
//	func Build(root string, opts Options) (*Graph, error)
//
// walks root (skipping node_modules, .git, build outputs, binary and huge
// files, symlink loops), parses every .ts/.tsx/.mts/.cts file in parallel and
// resolves every call. Functions are sorted by file, then line.
