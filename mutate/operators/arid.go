package operators

import (
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
)

// Arid says which calls are not worth a mutant: logging and tracing. The
// gate's driver mutates nothing inside an arid call, nor on the line after
// an `// oracle-disable-next-line` comment, nor in type-only code, and
// CallStatementRemoval does not remove an arid call.
type Arid struct {
	// Loggers are the receiver names whose calls are arid (console always
	// is): "logger" makes logger.info(...) arid.
	Loggers []string
}

// IsArid reports whether a call of callee (as written, without whitespace)
// is arid.
func (a Arid) IsArid(callee string) bool {
	root, _, _ := strings.Cut(callee, ".")
	if root == "console" {
		return true
	}
	for _, l := range a.Loggers {
		if root == l || callee == l {
			return true
		}
	}
	return false
}

// IsAridCall reports whether call expression n of syn calls an arid callee.
func (a Arid) IsAridCall(syn *analyzer.Syntax, n Node) bool {
	f := syn.Child(n, "function")
	return f >= 0 && a.IsArid(strings.Join(strings.Fields(syn.Text(f)), ""))
}

// aridCall reports whether call expression n calls an arid callee.
func (c *Context) aridCall(n Node) bool { return c.Arid.IsAridCall(c.Syn, n) }

// disabledLines are the lines after a `// oracle-disable-next-line` comment.
func disabledLines(src []byte) map[int]bool {
	out := map[int]bool{}
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, "oracle-disable-next-line") && strings.Contains(l, "//") {
			out[i+2] = true
		}
	}
	return out
}

// typeOnly reports whether nodes of kind k hold only types (never mutated:
// esbuild erases them, so a mutant there could only survive): annotations,
// type arguments and parameters, local type declarations, and every type
// node (`predefined_type`, `array_type`, `literal_type`, `union_type`, ...),
// which is how the type of `x as string[]` or `satisfies T` is reached.
func typeOnly(k string) bool {
	switch k {
	case "type_annotation", "type_arguments", "type_parameters", "type_alias_declaration", "interface_declaration",
		"type_identifier", "nested_type_identifier", "type_predicate", "type_query", "index_type_query", "lookup_type":
		return true
	}
	return strings.HasSuffix(k, "_type")
}
