package analyzer

import "strings"

// Grammar gaps: tree-sitter-typescript v0.23.2 rejects a few constructs that
// TypeScript 5.9 accepts. When a file does not parse cleanly, repair blanks
// (overwrites with spaces) the tokens the grammar cannot read, which keeps
// every byte offset, line and column, and the file is parsed again. The
// repaired tree is kept only when it has fewer errors than the original.
// What was blanked is recorded so that the meaning is not lost:
//
//	<in T>, <out T>, <in out T>        variance modifiers: blanked (types are ignored)
//	export type * from "m"             `type` blanked; the export is recorded TypeOnly
//	export type * as ns from "m"       likewise
//	for (using x of xs)                `using` blanked; x is still a block-scoped "using x"
//	for (await using x of xs)          `await using` blanked; likewise
//	import("m").T<X>                   `<X>` blanked (a type query's type arguments)
//	import defer * as ns from "m"      `defer` blanked: a namespace import
//	static accessor x = 1              `accessor` blanked: a class field
//	f<typeof import("m")>()            `import("m")` overwritten with `_`s: an identifier
//	                                   of the same length (a type query; types are ignored)
//	import("m").T["k"]                 `["k"]` blanked (an indexed access type)
//	`\0${T}` (a template literal type)  escapes overwritten with `_`s: the grammar's
//	                                   template literal type reads none
//	x: (any) => void                   a function type's only parameter named like a type
//	                                   keyword: overwritten with `_`s (types are ignored)
//	  a: T                             a member of an interface or type literal, then
//	  <U>(x: U): U                     a generic call signature on the next line with no `;`
//	                                   between: the grammar reads `T <U>(...)` as one type;
//	                                   the blank before `<` becomes `;` (what ASI means here);
//	                                   the type parameters may hold object types (`I = {}`)
//
// The scanner below knows just enough of the lexical grammar to find these
// tokens outside strings, template literals, comments and regular
// expressions.

// repairs records what repair blanked, by byte offset of the blanked token.
type repairs struct {
	typeStar map[uint32]bool // offsets of `type` in `export type *`
	using    map[uint32]bool // offsets of `using` in `for (using x of ...)`
}

type token struct {
	kind       byte // 'i' identifier or keyword (incl. #name), 's' string, 't' template piece, 'n' number, 'r' regex, 'p' punctuation
	start, end int
}

// tokenize splits src into tokens, skipping whitespace and comments.
// Punctuation is one byte per token, except "=>".
func tokenize(src []byte) []token {
	var toks []token
	// braces: 'c' for a code brace, 't' for the `${` of a template literal.
	var braces []byte
	regexOK := func() bool {
		if len(toks) == 0 {
			return true
		}
		p := toks[len(toks)-1]
		switch p.kind {
		case 'p':
			c := src[p.start]
			return !(c == ')' || c == ']' || c == '}') || p.end-p.start == 2
		case 'i':
			switch string(src[p.start:p.end]) {
			case "return", "typeof", "instanceof", "in", "of", "new", "delete", "void",
				"throw", "case", "do", "else", "yield", "await":
				return true
			}
			return false
		}
		return false
	}
	n := len(src)
	i := 0
	// template scans a template literal piece from i (just after "`" or "}")
	// to its closing "`" or to the next "${".
	template := func(start int) {
		j := i
		for j < n {
			switch src[j] {
			case '\\':
				j += 2
				continue
			case '`':
				toks = append(toks, token{'t', start, j + 1})
				i = j + 1
				return
			case '$':
				if j+1 < n && src[j+1] == '{' {
					toks = append(toks, token{'t', start, j + 2})
					braces = append(braces, 't')
					i = j + 2
					return
				}
			}
			j++
		}
		toks = append(toks, token{'t', start, n})
		i = n
	}
	for i < n {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '/' && i+1 < n && src[i+1] == '/':
			for i < n && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < n && src[i+1] == '*':
			j := i + 2
			for j+1 < n && !(src[j] == '*' && src[j+1] == '/') {
				j++
			}
			i = j + 2
		case c == '"' || c == '\'':
			j := i + 1
			for j < n && src[j] != c && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j > n {
				j = n
			}
			if j < n && src[j] == c {
				j++
			}
			toks = append(toks, token{'s', i, j})
			i = j
		case c == '`':
			s := i
			i++
			template(s)
		case c == '{':
			braces = append(braces, 'c')
			toks = append(toks, token{'p', i, i + 1})
			i++
		case c == '}':
			if len(braces) > 0 && braces[len(braces)-1] == 't' {
				braces = braces[:len(braces)-1]
				s := i
				i++
				template(s)
				continue
			}
			if len(braces) > 0 {
				braces = braces[:len(braces)-1]
			}
			toks = append(toks, token{'p', i, i + 1})
			i++
		case c == '/' && regexOK():
			j := i + 1
			class := false
			for j < n && src[j] != '\n' {
				if src[j] == '\\' {
					j += 2
					continue
				}
				if src[j] == '[' {
					class = true
				} else if src[j] == ']' {
					class = false
				} else if src[j] == '/' && !class {
					break
				}
				j++
			}
			if j < n && src[j] == '/' {
				j++
				for j < n && isIdentByte(src[j]) {
					j++
				}
			}
			if j > n {
				j = n
			}
			toks = append(toks, token{'r', i, j})
			i = j
		case c >= '0' && c <= '9':
			j := i + 1
			for j < n && (isIdentByte(src[j]) || src[j] == '.') {
				j++
			}
			toks = append(toks, token{'n', i, j})
			i = j
		case isIdentByte(c) || c == '#':
			j := i + 1
			for j < n && isIdentByte(src[j]) {
				j++
			}
			toks = append(toks, token{'i', i, j})
			i = j
		case c == '=' && i+1 < n && src[i+1] == '>':
			toks = append(toks, token{'p', i, i + 2})
			i += 2
		default:
			toks = append(toks, token{'p', i, i + 1})
			i++
		}
	}
	return toks
}

// isIdentByte: ASCII identifier characters and any non-ASCII byte (Unicode
// identifiers; non-ASCII whitespace is rare enough not to matter here).
func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// repair returns src with grammar-gap tokens blanked, and what it blanked;
// nil when nothing matched.
func repair(src []byte) ([]byte, *repairs) {
	toks := tokenize(src)
	val := func(k int) string {
		if k < 0 || k >= len(toks) {
			return ""
		}
		return string(src[toks[k].start:toks[k].end])
	}
	isIdent := func(k int) bool { return k >= 0 && k < len(toks) && toks[k].kind == 'i' }
	var blanks [][2]int
	rep := &repairs{typeStar: map[uint32]bool{}, using: map[uint32]bool{}}
	blank := func(k int) { blanks = append(blanks, [2]int{toks[k].start, toks[k].end}) }
	var semis []int          // offsets of a blank that becomes `;`
	var underscores [][2]int // ranges overwritten with `_`

	for k := 0; k < len(toks); k++ {
		if toks[k].kind == 't' {
			// Escapes in a template literal: the grammar's template literal
			// type reads none (`\0${T}`); the text is read from the source.
			for j := toks[k].start + 1; j < toks[k].end-1; j++ {
				if src[j] == '\\' {
					underscores = append(underscores, [2]int{j, j + 1})
					if j+1 < toks[k].end-1 && src[j+1] != '\n' && src[j+1] != '\r' && src[j+1] < 0x80 {
						underscores = append(underscores, [2]int{j + 1, j + 2})
					}
					j++
				}
			}
			continue
		}
		if val(k) == "<" && k > 0 {
			if at, ok := signatureSeparator(src, toks, k, val); ok {
				semis = append(semis, at)
			}
			continue
		}
		if toks[k].kind != 'i' {
			continue
		}
		if typeKeywordParam(val, k) {
			underscores = append(underscores, [2]int{toks[k].start, toks[k].end})
			continue
		}
		switch val(k) {
		case "in", "out":
			// <in T>, <out T>, <in out T>: modifiers after `<` or `,`, then
			// the parameter's name, then `,` `>` `=` or `extends`.
			if p := val(k - 1); p != "<" && p != "," {
				continue
			}
			m := k
			for isIdent(m) && (val(m) == "in" || val(m) == "out") && isIdent(m+1) && val(m+1) != "extends" {
				m++
			}
			if m == k || !isIdent(m) {
				continue
			}
			switch val(m + 1) {
			case ",", ">", "=", "extends":
				for j := k; j < m; j++ {
					blank(j)
				}
				k = m
			}
		case "export":
			if val(k+1) == "type" && val(k+2) == "*" {
				blank(k + 1)
				rep.typeStar[uint32(toks[k+1].start)] = true
			}
		case "for":
			j := k + 1
			if val(j) == "await" {
				j++
			}
			if val(j) != "(" {
				continue
			}
			j++
			aw := -1
			if val(j) == "await" {
				aw = j
				j++
			}
			if val(j) == "using" && isIdent(j+1) && val(j+2) == "of" {
				if aw >= 0 {
					blank(aw)
				}
				blank(j)
				rep.using[uint32(toks[j].start)] = true
			}
		case "import":
			// typeof import("m") in a type argument: an identifier of the same length.
			if val(k-1) == "typeof" && val(k+1) == "(" && toks[min(k+2, len(toks)-1)].kind == 's' && val(k+3) == ")" &&
				!strings.ContainsAny(string(src[toks[k].start:toks[k+3].end]), "\n\r") {
				underscores = append(underscores, [2]int{toks[k].start, toks[k+3].end})
				k += 3
				continue
			}
			switch {
			case val(k+1) == "defer" && val(k+2) == "*":
				blank(k + 1)
			case val(k+1) == "(" && toks[min(k+2, len(toks)-1)].kind == 's' && val(k+3) == ")":
				j := k + 4
				for val(j) == "." && isIdent(j+1) {
					j += 2
				}
				if j > k+4 && val(j) == "[" && toks[min(j+1, len(toks)-1)].kind == 's' && val(j+2) == "]" {
					// import("m").T["k"]: an indexed access type, blanked
					e := j + 2
					for val(e+1) == "[" && toks[min(e+2, len(toks)-1)].kind == 's' && val(e+3) == "]" {
						e += 3
					}
					blanks = append(blanks, [2]int{toks[j].start, toks[e].end})
					k = e
					continue
				}
				if j == k+4 || val(j) != "<" {
					continue
				}
				depth, e := 0, -1
				for m := j; m < len(toks) && m < j+256; m++ {
					v := val(m)
					if v == "<" {
						depth++
					} else if v == ">" {
						depth--
						if depth == 0 {
							e = m
							break
						}
					} else if v == ";" {
						break
					}
				}
				if e > 0 {
					blanks = append(blanks, [2]int{toks[j].start, toks[e].end})
					k = e
				}
			}
		case "accessor":
			if val(k-1) == "." {
				continue
			}
			switch toks[min(k+1, len(toks)-1)].kind {
			case 'i', 's':
			case 'p':
				if val(k+1) != "[" {
					continue
				}
			default:
				continue
			}
			if k+1 >= len(toks) {
				continue
			}
			switch val(k - 1) {
			case "static", "public", "private", "protected", "override", "readonly", "declare", "abstract":
				blank(k)
			}
		}
	}
	if len(blanks) == 0 && len(semis) == 0 && len(underscores) == 0 {
		return nil, nil
	}
	out := make([]byte, len(src))
	copy(out, src)
	for _, at := range semis {
		out[at] = ';'
	}
	for _, u := range underscores {
		for j := u[0]; j < u[1]; j++ {
			out[j] = '_'
		}
	}
	for _, b := range blanks {
		for j := b[0]; j < b[1] && j < len(out); j++ {
			if out[j] != '\n' && out[j] != '\r' {
				out[j] = ' '
			}
		}
	}
	return out, rep
}

// signatureSeparator reports where a `;` belongs before the `<` of token k:
// `<` opens a line (after indentation), the previous line ends a type
// (a name, `)`, `]`, `>`), and what follows is type parameters and `(`:
// a generic call signature. It returns the offset of the blank before `<`.
func signatureSeparator(src []byte, toks []token, k int, val func(int) string) (int, bool) {
	at := toks[k].start - 1
	if at < 0 || (src[at] != ' ' && src[at] != '\t') {
		return 0, false
	}
	nl := false
	for j := at; j > toks[k-1].end-1 && j >= 0; j-- {
		if src[j] == '\n' {
			nl = true
		}
	}
	if !nl {
		return 0, false
	}
	switch p := val(k - 1); {
	case toks[k-1].kind == 'i', p == ")", p == "]", p == ">":
	default:
		return 0, false
	}
	// < Name [extends ...] [= ...] [, Name ...] > ( : object types (`= {}`,
	// `extends { a: T; b: U }`) may stand in it, balanced.
	depth, braces := 0, 0
	for m := k; m < len(toks) && m < k+4096; m++ {
		switch val(m) {
		case "<":
			depth++
		case ">":
			depth--
			if depth == 0 {
				return at, braces == 0 && val(m+1) == "("
			}
		case "{":
			braces++
		case "}":
			if braces--; braces < 0 {
				return 0, false
			}
		case ";":
			if braces == 0 {
				return 0, false
			}
		}
	}
	return 0, false
}

// typeKeywordParam reports whether token k is a parameter named like a type
// keyword, alone in the parameters of a function type annotation:
// `h: { inject: (any) => void }` (the grammar reads `any` as the type).
func typeKeywordParam(val func(int) string, k int) bool {
	switch val(k) {
	case "any", "unknown", "string", "number", "boolean", "symbol", "object", "never", "bigint":
	default:
		return false
	}
	return val(k-1) == "(" && val(k-2) == ":" && val(k+1) == ")" && val(k+2) == "=>"
}
