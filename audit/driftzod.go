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
	init := schemaInit(p, file, m[2])
	if init == "" {
		return unknownAsync, true
	}
	lower := strings.ToLower(init)
	for _, promise := range []string{"promise", "async", "then(", "fetch("} {
		if strings.Contains(lower, promise) {
			return unknownAsync, true // anywhere: a union or a transform may hold it
		}
	}
	for _, anything := range []string{"z.any(", "z.unknown(", "z.custom", "z.lazy(", "z.function(", "z.instanceof("} {
		if strings.HasPrefix(init, anything) {
			return unknownAsync, true
		}
	}
	if strings.HasPrefix(init, "z.") || objectSchemaChain.MatchString(init) {
		return isSync, true
	}
	return unknownAsync, true
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
