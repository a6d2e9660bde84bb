package operators

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"github.com/oracle-ts/oracle/internal/testenv"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/syntaxcheck"
	"github.com/oracle-ts/oracle/mutate/edit"
)

// The properties every operator keeps, on any function of any file:
//
//   - the mutant parses (edit.Acceptance: no parse error tree-sitter did not
//     have on the original, and esbuild accepts it): an operator never
//     relies on the acceptance rule to drop what it broke;
//   - it differs from the original only inside its span (the node the
//     gate's operator visited; the function's body for prove's);
//   - it keeps the statement structure around the change: the same sequence
//     of statement nodes outside the changed ranges, each under the same
//     parent statement (a call removed from `if (v) log.push(m);` must not
//     make the next statement the `if`'s body).
//
// The corpus is the samples' TypeScript and the TypeScript sources of the
// npm packages installed under testdata (zod, mobx, immer, ajv, ...), read
// where they are at test time.

// checkFile runs every operator over every function of the file (a chunk
// of it: the top-level statement around the function, parsed alone, which
// keeps the test fast) and reports each broken property. It returns how
// many mutants it checked.
func checkFile(t testing.TB, path string, src []byte, smp *sampler) int {
	f, syn := analyzer.ParseSyntax(path, src)
	if syn == nil || len(f.Errors) > 0 {
		return 0
	}
	n := 0
	done := map[[2]uint]bool{}
	for _, fn := range f.Functions {
		if fn.Parent != nil {
			continue
		}
		top := topLevel(syn, syn.FunctionNode(fn))
		if top < 0 || syn.End(top)-syn.Start(top) > 20000 {
			continue
		}
		key := [2]uint{syn.Start(top), syn.End(top)}
		chunk := src[key[0]:key[1]]
		if done[key] {
			continue // a class: its methods are checked with the first
		}
		done[key] = true
		n += checkChunk(t, path, chunk, smp)
	}
	return n
}

// booleanFlag is a flag of fn as a manifest would name it: its first
// parameter declared boolean, or the first boolean property of the type of
// its first parameter with one.
func booleanFlag(fn *analyzer.Function) (edit.Flag, bool) {
	for _, p := range fn.Params {
		if p.Name == "" {
			continue
		}
		if p.Type == "boolean" {
			return edit.Flag{Param: p.Name}, true
		}
		if m := boolProp.FindStringSubmatch(p.Type); m != nil {
			return edit.Flag{Param: p.Name, Props: []string{m[1]}}, true
		}
	}
	return edit.Flag{}, false
}

var boolProp = regexp.MustCompile(`(\w+)\??: boolean\b`)

// topLevel is the statement of the program that holds n.
func topLevel(s *analyzer.Syntax, n Node) Node {
	for n >= 0 && s.Parent(n) >= 0 && s.Kind(s.Parent(n)) != "program" {
		n = s.Parent(n)
	}
	return n
}

// checkChunk checks the mutants of every function of chunk, a source of
// its own.
func checkChunk(t testing.TB, path string, src []byte, smp *sampler) int {
	f, syn := analyzer.ParseSyntax(path, src)
	if syn == nil || len(f.Errors) > 0 || syntaxcheck.Check(path, src) != nil {
		return 0 // what esbuild does not read alone (a `declare` block, ...) is not a sample
	}
	accept := edit.Accepting(path, src)
	defer accept.Close()
	n := 0
	check := func(what string, span [2]uint, m Mutation) {
		smp.seen++
		if smp.seen%smp.every != 0 {
			return
		}
		n++
		out, _, err := edit.Apply(src, m.Changes)
		if err != nil {
			t.Errorf("%s: %s: %v", path, what, err)
			return
		}
		if err := accept.Check(out); err != nil {
			t.Errorf("%s: %s does not parse (%v):\n%s", path, what, err, excerpt(out, m.Changes))
			return
		}
		chs := sorted(m.Changes)
		first, last := chs[0], chs[len(chs)-1]
		tail := uint(len(src)) - last.End
		if first.Start < span[0] || last.End > span[1] || !bytes.Equal(out[:first.Start], src[:first.Start]) ||
			!bytes.Equal(out[uint(len(out))-tail:], src[last.End:]) {
			t.Errorf("%s: %s changes %d-%d, outside its span %d-%d", path, what, first.Start, last.End, span[0], span[1])
		}
		if bytes.Equal(out, src) && m.Note == "" {
			t.Errorf("%s: %s changes nothing", path, what)
		}
		_, msyn := analyzer.ParseSyntax(path, out)
		if got, want := statements(msyn, m.Changes, 1), mapped(statements(syn, m.Changes, 0), m.Changes); got != want {
			t.Errorf("%s: %s changes the statements around it:\n%s\ngot\n%s\nwant\n%s", path, what, excerpt(out, m.Changes), got, want)
		}
	}
	for _, fn := range f.Functions {
		body := syn.Find(fn.BodyStartByte, fn.BodyEndByte, "")
		if body < 0 {
			continue
		}
		// The gate's operators, as the gate walks, before acceptance.
		for _, c := range gateCandidates(&Context{Path: path, Src: src, Syn: syn}, body) {
			check(fmt.Sprintf("%s at %d", c.op.Name, c.Changes[0].Start), [2]uint{syn.Start(c.n), syn.End(c.n)}, c.Mutation)
		}
		// prove's operators, on a flag as a manifest names one: a boolean
		// parameter, or a boolean property of an options parameter
		// (`opts: { dryRun?: boolean }`); the first call is the wrapped
		// one, the next three preserved.
		flag, ok := booleanFlag(fn)
		if !ok || fn.Parent != nil {
			continue
		}
		sc, err := edit.NewScope(edit.Target{Path: path, Src: src, Fn: fn, Flag: flag})
		if err != nil {
			continue
		}
		var calls []*analyzer.Call
		for i := range fn.Calls {
			if _, err := sc.CallNode(&fn.Calls[i]); err == nil && !fn.Calls[i].New && len(calls) < 4 {
				calls = append(calls, &fn.Calls[i])
			}
		}
		if len(calls) == 0 {
			continue
		}
		c := &Context{Path: path, Src: src, Syn: sc.Syntax(), Scope: sc, Fn: fn, Wrap: calls[0], Preserves: calls[1:],
			preserved: map[Node]*analyzer.Call{}}
		span := [2]uint{fn.BodyStartByte, fn.BodyEndByte}
		visits := []struct {
			n    Node
			kind string
		}{{sc.Body(), Function}}
		for _, p := range c.Preserves {
			cn, err := sc.CallNode(p)
			if err != nil {
				t.Errorf("%s: %v", path, err)
				continue
			}
			c.preserved[cn] = p
			visits = append(visits, struct {
				n    Node
				kind string
			}{cn, "call_expression"})
		}
		for _, v := range visits {
			for _, op := range Of(ProveVerb) {
				if !op.Visits(v.kind) {
					continue
				}
				ms, err := op.Mutate(c, v.n)
				if err != nil {
					t.Errorf("%s: %s of %s: %v", path, op.Name, fn.Name, err)
				}
				for _, m := range ms {
					check(fmt.Sprintf("%s of %s (flag %s)", op.Name, fn.Name, flag), span, m)
				}
			}
		}
	}
	return n
}

// sampler checks every every-th mutant of all it sees.
type sampler struct{ every, seen int }

// statements lists the statement nodes of s outside the changes (phase 0:
// the original's ranges, phase 1: the mutant's), each with its position
// (an offset, or "c<k>" for one at or in change k) and the index of its
// parent statement, one per line.
func statements(s *analyzer.Syntax, chs []edit.Change, phase int) string {
	type st struct {
		kind, start string
		parent      int
	}
	chs = sorted(chs)
	// the changes' ranges in this source
	var ranges [][2]uint
	var shift int
	for _, c := range chs {
		if phase == 0 {
			ranges = append(ranges, [2]uint{c.Start, c.End})
		} else {
			at := uint(int(c.Start) + shift)
			ranges = append(ranges, [2]uint{at, at + uint(len(c.Text))})
			shift += len(c.Text) - int(c.End-c.Start)
		}
	}
	pos := func(x uint) string {
		for k, r := range ranges {
			if r[0] <= x && x <= r[1] {
				return fmt.Sprintf("c%d", k)
			}
		}
		return fmt.Sprint(x)
	}
	inside := func(a, b uint) bool {
		for _, r := range ranges {
			if r[0] <= a && b <= r[1] {
				return true
			}
		}
		return false
	}
	var list []st
	index := map[Node]int{}
	var walk func(n Node, parent int)
	walk = func(n Node, parent int) {
		k := s.Kind(n)
		if isStatement(k) && !inside(s.Start(n), s.End(n)) {
			index[n] = len(list)
			list = append(list, st{k, pos(s.Start(n)), parent})
			parent = index[n]
		}
		for ch := s.FirstChild(n); ch >= 0; ch = s.Next(ch) {
			walk(ch, parent)
		}
	}
	walk(s.Root(), -1)
	var b strings.Builder
	for _, x := range list {
		fmt.Fprintf(&b, "%s@%s<%d\n", x.kind, x.start, x.parent)
	}
	return b.String()
}

// mapped is the original's statement list with its offsets moved past the
// changes as the mutant has them.
func mapped(orig string, chs []edit.Change) string {
	chs = sorted(chs)
	var b strings.Builder
	for _, line := range strings.SplitAfter(orig, "\n") {
		at := strings.IndexByte(line, '@')
		lt := strings.IndexByte(line, '<')
		if at < 0 || lt < 0 {
			b.WriteString(line)
			continue
		}
		var x int
		if _, err := fmt.Sscan(line[at+1:lt], &x); err != nil {
			b.WriteString(line) // a change's position stays the change's
			continue
		}
		moved := x
		for _, c := range chs {
			if int(c.End) <= x {
				moved += len(c.Text) - int(c.End-c.Start)
			}
		}
		x = moved
		fmt.Fprintf(&b, "%s@%d%s", line[:at], x, line[lt:])
	}
	return b.String()
}

func sorted(chs []edit.Change) []edit.Change {
	out := append([]edit.Change(nil), chs...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

func isStatement(kind string) bool {
	return strings.HasSuffix(kind, "_statement") || strings.HasSuffix(kind, "_declaration") || kind == "statement_block"
}

// excerpt is the lines of out around the first change.
func excerpt(out []byte, chs []edit.Change) string {
	at := int(sorted(chs)[0].Start)
	lines := bytes.Split(out, []byte("\n"))
	ln := bytes.Count(out[:min(at, len(out))], []byte("\n"))
	lo, hi := max(ln-2, 0), min(ln+3, len(lines))
	return string(bytes.Join(lines[lo:hi], []byte("\n")))
}

// corpus is the samples' TypeScript and the npm packages' TypeScript
// sources under testdata (declaration files excepted), each content once,
// in path order.
func corpus(t testing.TB) []string {
	root := "../../testdata"
	seen := map[[32]byte]bool{}
	var files []string
	modules := false
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "node_modules" {
				modules = true
			}
			return nil
		}
		if !strings.HasSuffix(p, ".ts") && !strings.HasSuffix(p, ".tsx") || strings.HasSuffix(p, ".d.ts") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if h := sha256.Sum256(src); !seen[h] {
			seen[h] = true
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !modules {
		if testenv.InCI() {
			t.Fatal("no node_modules under testdata: run scripts/deps")
		}
		t.Log("no node_modules under testdata (scripts/deps installs them): the samples only")
	}
	sort.Strings(files)
	return files
}

// TestOperatorProperties: every operator keeps its properties over the
// corpus. The whole corpus makes some 50,000 mutants, minutes of parsing:
// by default the samples' files and every 6th npm source run, and every 8th
// mutant of them is checked, in order (ORACLE_CORPUS=all: every file and
// every mutant).
func TestOperatorProperties(t *testing.T) {
	files := corpus(t)
	smp, stride := &sampler{every: 8}, 6
	if os.Getenv("ORACLE_CORPUS") == "all" {
		smp.every, stride = 1, 1
	}
	n, nf := 0, 0
	for i, p := range files {
		if strings.Contains(p, "node_modules") && i%stride != 0 {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		n += checkFile(t, p, src, smp)
		nf++
	}
	t.Logf("%d mutants of %d files checked (%d made)", n, nf, smp.seen)
	if n < 500 {
		t.Errorf("only %d mutants checked: the corpus is missing", n)
	}
}

// FuzzOperators: the properties on any source that parses.
func FuzzOperators(f *testing.F) {
	for _, s := range []string{
		tableHead + "if (opts.skip) xs.push(a);\n  return xs;\n}\n",
		"function f(a, b) {\n  a = b\n  save(a)\n  ;[1].map((x) => x > 0 ? -x : +x)\n  return a?.b.toUpperCase()\n}\n",
		"async function f(o: { skip?: boolean }) {\n  for (const x of o.list) if (!o.skip) await write(x); else log(x);\n  while (o.n--) o.n ||= 1;\n}\n",
		"function f(a, b) {\n  for (; a && b < 2;) a = (a ?? 1.5.toFixed(2)) || b && -1 || Math.round(a * 0x10);\n  return-1\n}\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		checkChunk(t, "x.ts", []byte(src), &sampler{every: 1})
	})
}
