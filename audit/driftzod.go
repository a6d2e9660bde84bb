package audit

import (
	"regexp"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/callgraph"
)

// zodInferred matches the type zod infers from a schema of the repository:
// `z.infer<typeof schema>` (z.output, z.input, z.TypeOf).
var zodInferred = regexp.MustCompile(`^z\.(infer|output|input|TypeOf)<\s*typeof\s+([A-Za-z_$][\w$]*)\s*>$`)

// zodAsync is the async-ness of a type zod infers from a schema the
// repository declares (issue 41: shadcn-ui's parameters and results are
// `z.infer<typeof registryItemSchema>`, and a mock returning its argument,
// or a plain value, for an async function went unseen): a plain value when
// the schema is built by zod's own object, array and scalar schemas (its
// initializer a `z.` call chain, or a chain of an object schema's
// extend/pick/omit/merge/partial/required/array/... on another schema); unknown when it
// could hold a promise or anything (`z.promise`, `.promise()`, an async
// transform, anywhere in it; `z.any`, `z.unknown`, `z.custom`, `z.lazy`,
// `z.function`, `z.instanceof` as the schema itself), or the schema is not
// found. ok is false when t is no
// such type.
func zodAsync(p *callgraph.Program, file, t string) (a asyncness, ok bool) {
	m := zodInferred.FindStringSubmatch(strings.TrimSpace(t))
	if m == nil {
		return unknownAsync, false
	}
	return schemaAsync(p, file, m[2]), true
}

// zodParsed is the async-ness of a call `schema.parse(x)` (or safeParse)
// of a zod schema of the repository: what the schema's values are
// (schemaAsync; a safeParse's { success, data } is a plain object when
// they are); `schema.parseAsync(x)` is a promise. ok is false when the call is
// no such call.
func zodParsed(p *callgraph.Program, file, callee string) (a asyncness, ok bool) {
	name, method, found := strings.Cut(callee, ".")
	if !found || strings.Contains(method, ".") || !jsIdent.MatchString(name) {
		return unknownAsync, false
	}
	switch method {
	case "parse", "safeParse":
		if schemaInit(p, file, name) == "" {
			return unknownAsync, false
		}
		return schemaAsync(p, file, name), true
	case "parseAsync", "safeParseAsync":
		if schemaInit(p, file, name) == "" {
			return unknownAsync, false
		}
		return isAsync, true
	}
	return unknownAsync, false
}

var jsIdent = regexp.MustCompile(`^[A-Za-z_$][\w$]*$`)

// schemaAsync is the async-ness of the values of schema name, a const of
// file or one it imports (zodAsync).
func schemaAsync(p *callgraph.Program, file, name string) asyncness {
	init := schemaInit(p, file, name)
	if init == "" {
		return unknownAsync
	}
	lower := strings.ToLower(init)
	for _, promise := range []string{"promise", "async", "then(", "fetch("} {
		if strings.Contains(lower, promise) {
			return unknownAsync // anywhere: a union or a transform may hold it
		}
	}
	for _, anything := range []string{"z.any(", "z.unknown(", "z.custom", "z.lazy(", "z.function(", "z.instanceof("} {
		if strings.HasPrefix(init, anything) {
			return unknownAsync
		}
	}
	if strings.HasPrefix(init, "z.") || objectSchemaChain.MatchString(init) {
		return isSync
	}
	return unknownAsync
}

// objectSchemaChain is a schema made from another by a method only zod's
// object schema has, or .array(): an object or an array whatever the other is.
var objectSchemaChain = regexp.MustCompile(`^[A-Za-z_$][\w$]*\s*\.\s*(extend|pick|omit|merge|partial|required|strict|passthrough|strip|deepPartial|array)\s*\(`)

// schemaInit is the initializer, as written, of the top-level const name
// of file, or of the const it imports under that name from a module of
// the repository; "" when not found.
func schemaInit(p *callgraph.Program, file, name string) string {
	f, _ := p.Module(file)
	if f == nil {
		return ""
	}
	declFile, declName := file, name
	local := false
	for _, d := range f.Decls {
		local = local || d.Name == name && d.Kind == analyzer.DeclVariable
	}
	if !local {
		declFile = ""
		for _, im := range f.Imports {
			if im.Local != name || im.Kind != analyzer.ImportNamed {
				continue
			}
			if r := p.Resolver().Resolve(file, im.Specifier); r.Kind == "file" {
				declFile, declName, _ = p.ExportedDeclaration(r.Path, im.Imported)
			}
		}
	}
	if declFile == "" {
		return ""
	}
	_, syn := parseFile(p, declFile)
	if syn == nil {
		return ""
	}
	init := ""
	for _, st := range syn.NamedChildren(syn.Root()) {
		if syn.Kind(st) == "export_statement" {
			st = syn.Child(st, "declaration")
		}
		if syn.Kind(st) != "lexical_declaration" || !syn.HasToken(st, "const") {
			continue
		}
		for _, d := range syn.NamedChildren(st) {
			if syn.Kind(d) == "variable_declarator" && syn.Text(syn.Child(d, "name")) == declName {
				init = strings.Join(strings.Fields(syn.Text(syn.Child(d, "value"))), " ")
			}
		}
	}
	return init
}
