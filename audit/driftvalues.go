package audit

import (
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
)

// constValue is the value a name of the test file stands for when it is a
// const declared once in the file, anywhere, with a literal value (an
// object, an array, a string, a number, a boolean, null; `as const` and
// the like unwrapped): `mockResolvedValue(FIXTURE)` is the object FIXTURE
// is. Any other node, or a name declared more than once (a shadowing
// binding could be the one meant), or by let/var, is returned as is.
func constValue(syn *analyzer.Syntax, n analyzer.Node) analyzer.Node {
	if syn.Kind(n) != "identifier" {
		return n
	}
	name := syn.Text(n)
	var value analyzer.Node = analyzer.NoNode
	count := 0
	syn.Walk(syn.Root(), func(d analyzer.Node) bool {
		switch syn.Kind(d) {
		case "variable_declarator":
			if syn.Text(syn.Child(d, "name")) == name {
				count++
				if decl := syn.Parent(d); syn.Kind(decl) == "lexical_declaration" && syn.HasToken(decl, "const") {
					value = syn.Unwrap(syn.Child(d, "value"))
				}
			}
		case "arrow_function":
			if syn.Text(syn.Child(d, "parameter")) == name {
				count++ // x => x
			}
		case "function_declaration", "class_declaration", "required_parameter", "optional_parameter", "import_specifier", "namespace_import":
			if syn.Text(syn.Child(d, "name")) == name || syn.Text(syn.Child(d, "pattern")) == name {
				count++
			}
		}
		return count < 2
	})
	if count != 1 || value < 0 {
		return n
	}
	switch syn.Kind(value) {
	case "object", "array", "string", "template_string", "number", "true", "false", "null":
		return value
	}
	return n
}

// returnedParam is the 1-based index of fn's parameter that every one of
// returns is (a plain identifier parameter: `(x) => x`), or the property
// path below it every one reads (`(opts) => opts.raw`: path ["raw"]); 0
// when none.
func returnedParam(syn *analyzer.Syntax, fn analyzer.Node, returns []analyzer.Node) (int, []string) {
	if len(returns) == 0 {
		return 0, nil
	}
	var params []string
	if q := syn.Child(fn, "parameter"); q >= 0 {
		params = append(params, syn.Text(q))
	}
	for _, q := range syn.NamedChildren(syn.Child(fn, "parameters")) {
		if pat := syn.Child(q, "pattern"); pat >= 0 && syn.Kind(pat) == "identifier" {
			params = append(params, syn.Text(pat))
			continue
		}
		params = append(params, "")
	}
	at, path := 0, ""
	for _, e := range returns {
		root, below := paramPath(syn, syn.Unwrap(e))
		i := 0
		for j, p := range params {
			if p != "" && p == root {
				i = j + 1
			}
		}
		if i == 0 || at != 0 && (i != at || below != path) {
			return 0, nil
		}
		at, path = i, below
	}
	if path == "" {
		return at, nil
	}
	return at, strings.Split(path, ".")
}

// paramPath splits `opts.a.b` (identifiers and dots only) into its root
// and the path below it ("a.b"); "" and "" for anything else.
func paramPath(syn *analyzer.Syntax, e analyzer.Node) (root, below string) {
	switch syn.Kind(e) {
	case "identifier":
		return syn.Text(e), ""
	case "member_expression":
		prop := syn.Child(e, "property")
		if syn.Kind(prop) != "property_identifier" || syn.HasToken(e, "?.") {
			return "", ""
		}
		root, below = paramPath(syn, syn.Child(e, "object"))
		if root == "" {
			return "", ""
		}
		if below != "" {
			return root, below + "." + syn.Text(prop)
		}
		return root, syn.Text(prop)
	}
	return "", ""
}
