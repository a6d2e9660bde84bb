package change

import (
	"fmt"
	"path"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
)

// A function declaration moved to another file of the change (and maybe
// renamed there) changes no behaviour either (SPEC "oracle gate", the
// change's own code): `refactor: move isPlainObject to _utils` deletes
// `function _isPlainObject` from defu.ts, writes it, exported, as
// `isPlainObject` in a new _utils.ts, imports it back and renames the
// calls. Its tokens, in both files, are not changed tokens, nor are the
// import of it the file it left gained and its uses there under the new
// name. A declaration is taken as moved when it is the only top-level
// function of its tokens (its own name left out) that the change deleted
// from one file and the only one it wrote in another.

// revisions is one file of the change: its path, base (nil: new) and
// head (nil: deleted).
type revisions struct {
	path       string
	base, head []byte
}

// parsedFile is a file's revisions parsed once for every question
// crossMoves asks of them (a nil revision has no tokens and no syntax).
type parsedFile struct {
	revisions
	b, h parsed
}

// parsed is one revision's code tokens and syntax.
type parsed struct {
	toks []token
	syn  *analyzer.Syntax
}

func parseRevision(path string, src []byte) parsed {
	if src == nil {
		return parsed{}
	}
	toks, _, syn := parseTokens(path, src)
	return parsed{toks, syn}
}

// crossMarks are what a file's diff leaves out for the moves across files:
// head and base spans whose tokens are moved, the head's identifiers to
// read under their base name, and what the change did.
type crossMarks struct {
	head, base []Span
	renames    map[string]string // head name → base name
	what       []string
}

// crossMoves finds the functions moved between files and what each
// file's diff leaves out for them, by path.
func crossMoves(files []revisions) map[string]*crossMarks {
	type decl struct {
		file string
		topDecl
	}
	byPath := map[string]*parsedFile{}
	deleted, written := map[string][]decl{}, map[string][]decl{}
	for _, f := range files {
		pf := &parsedFile{f, parseRevision(f.path, f.base), parseRevision(f.path, f.head)}
		byPath[f.path] = pf
		bd, hd := topFunctions(pf.b), topFunctions(pf.h)
		for k, d := range bd {
			if _, kept := hd[k]; !kept {
				deleted[k] = append(deleted[k], decl{f.path, d})
			}
		}
		for k, d := range hd {
			if _, kept := bd[k]; !kept {
				written[k] = append(written[k], decl{f.path, d})
			}
		}
	}
	out := map[string]*crossMarks{}
	at := func(p string) *crossMarks {
		if out[p] == nil {
			out[p] = &crossMarks{renames: map[string]string{}}
		}
		return out[p]
	}
	for k, ds := range deleted {
		ws := written[k]
		if len(ds) != 1 || len(ws) != 1 || ds[0].file == ws[0].file {
			continue
		}
		from, to := ds[0], ws[0]
		// Only a function its file kept to itself: an exported one's
		// importers elsewhere would have to change too. Renamed, the name
		// it had is read nowhere in its old file, and the new one was not
		// read there before.
		if from.exported || to.name != from.name && !renamable(byPath[from.file], from.name, to.name) {
			continue
		}
		at(from.file).base = append(at(from.file).base, from.span)
		at(to.file).head = append(at(to.file).head, to.span)
		what := fmt.Sprintf("function %s moved to %s", from.name, to.file)
		if to.name != from.name {
			what += " as " + to.name
			at(from.file).renames[to.name] = from.name
		}
		at(from.file).what = append(at(from.file).what, what)
		at(from.file).head = append(at(from.file).head, importsOf(byPath[from.file], to.file, to.name)...)
	}
	return out
}

// renamable: f's head reads no identifier named from (the old name), and
// its base none named to (the new one).
func renamable(f *parsedFile, from, to string) bool {
	has := func(p parsed, name string) bool {
		for _, t := range p.toks {
			if t.text == name && p.syn.Kind(t.node) == "identifier" {
				return true
			}
		}
		return false
	}
	return !has(f.h, from) && !has(f.b, to)
}

// topDecl is a top-level function declaration: its name, its span (the
// export statement around it, when exported) and whether it is exported.
type topDecl struct {
	name     string
	span     Span
	exported bool
}

// topFunctions are src's top-level function declarations by their tokens'
// texts without `export` and with the function's own name (where it
// declares or calls itself) left out; a key two declarations share is
// left out.
func topFunctions(p parsed) map[string]topDecl {
	toks, syn := p.toks, p.syn
	if syn == nil {
		return nil
	}
	out, twice := map[string]topDecl{}, map[string]bool{}
	for c := syn.FirstChild(syn.Root()); c >= 0; c = syn.Next(c) {
		d := declarationOf(syn, c)
		if d < 0 || syn.Kind(d) != "function_declaration" && syn.Kind(d) != "generator_function_declaration" {
			continue
		}
		name := syn.Text(syn.Child(d, "name"))
		s, e := int(syn.Start(d)), int(syn.End(d))
		var key strings.Builder
		for _, t := range toks {
			if t.start < s || t.end > e {
				continue
			}
			if t.text == name && syn.Kind(t.node) == "identifier" {
				key.WriteString("\x02")
			} else {
				key.WriteString(t.text)
			}
			key.WriteByte(0)
		}
		k := key.String()
		if _, ok := out[k]; ok {
			twice[k] = true
		}
		out[k] = topDecl{name: name, span: Span{int(syn.Start(c)), int(syn.End(c))}, exported: c != d}
	}
	for k := range twice {
		delete(out, k)
	}
	return out
}

// importsOf are the spans of f's head import statements that import only
// name from the file to (its path without extension, or its directory's
// index) and that f's base does not have: the import a moved function's
// old file gains.
func importsOf(f *parsedFile, to, name string) []Span {
	file, syn := f.path, f.h.syn
	if syn == nil {
		return nil
	}
	var out []Span
	for c := syn.FirstChild(syn.Root()); c >= 0; c = syn.Next(c) {
		if syn.Kind(c) != "import_statement" || !importsFrom(syn, c, file, to) {
			continue
		}
		names := importedNames(syn, c)
		text := f.head[syn.Start(c):syn.End(c)]
		if len(names) == 1 && names[0] == name && !strings.Contains(string(f.base), string(text)) {
			out = append(out, Span{int(syn.Start(c)), int(syn.End(c))})
		}
	}
	return out
}

// importsFrom: import statement n of file's head loads the file to.
func importsFrom(syn *analyzer.Syntax, n analyzer.Node, file, to string) bool {
	src := syn.Child(n, "source")
	if src < 0 {
		return false
	}
	spec := strings.Trim(syn.Text(src), `"'`)
	if !strings.HasPrefix(spec, ".") {
		return false
	}
	target := path.Join(path.Dir(file), spec)
	stem := strings.TrimSuffix(to, path.Ext(to))
	for _, ext := range []string{"", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx", ".jsx"} {
		if strings.TrimSuffix(target, ext) == stem && (ext == "" || strings.HasSuffix(target, ext)) {
			return true
		}
	}
	return path.Base(stem) == "index" && target == path.Dir(stem)
}

// importedNames are the local names import statement n binds: its named
// imports' (their alias when renamed); a default or namespace import is
// "" (no named import of a function).
func importedNames(syn *analyzer.Syntax, n analyzer.Node) []string {
	var out []string
	for c := syn.FirstChild(n); c >= 0; c = syn.Next(c) {
		if syn.Kind(c) != "import_clause" {
			continue
		}
		for b := syn.FirstChild(c); b >= 0; b = syn.Next(b) {
			switch syn.Kind(b) {
			case "identifier", "namespace_import":
				out = append(out, "")
			case "named_imports":
				for sp := syn.FirstChild(b); sp >= 0; sp = syn.Next(sp) {
					if syn.Kind(sp) != "import_specifier" {
						continue
					}
					id := syn.Child(sp, "alias")
					if id < 0 {
						id = syn.Child(sp, "name")
					}
					out = append(out, syn.Text(id))
				}
			}
		}
	}
	return out
}

// markSpans marks in marked (made when nil) the tokens of toks within
// spans.
func markSpans(toks []token, marked []bool, spans []Span) []bool {
	for _, s := range spans {
		for i, t := range toks {
			if t.start >= s.Start && t.end <= s.End {
				if marked == nil {
					marked = make([]bool, len(toks))
				}
				marked[i] = true
			}
		}
	}
	return marked
}

// renameTokens is toks with each identifier named a key of renames read
// under its value: the head's uses of a moved function under its new name
// are its base's calls; nil when the base has an identifier of a new name
// or the head one of an old name (the names would not be the same binding).
func renameTokens(hsyn, bsyn *analyzer.Syntax, h, b []token, renames map[string]string) []token {
	if len(renames) == 0 {
		return nil
	}
	for _, t := range b {
		if _, ok := renames[t.text]; ok && bsyn.Kind(t.node) == "identifier" {
			return nil
		}
	}
	old := map[string]bool{}
	for _, v := range renames {
		old[v] = true
	}
	out := append([]token(nil), h...)
	for i, t := range out {
		if hsyn.Kind(t.node) != "identifier" {
			continue
		}
		if old[t.text] {
			return nil
		}
		if v, ok := renames[t.text]; ok {
			out[i].text = v
		}
	}
	return out
}
