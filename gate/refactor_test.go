package gate

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/change"
	"github.com/oracle-ts/oracle/mutate/edit"
)

// TestRefactorMutants (issue 41): from a file's two versions, the mutants
// the gate makes, as its mutants stage does (every target's operator
// mutants on the change's code, then its reverts; one mutant per
// program). A change that changes no behaviour (a deleted declaration
// nothing reads, a renamed local, a moved function) has none; every
// replaced token gets its revert, even where an operator mutates it.
func TestRefactorMutants(t *testing.T) {
	for _, tc := range []struct {
		name, base, head string
		read             []string // the base's exported names another file reads
		want             []string // "target Operator original => replacement"
	}{
		{name: "an exported function nothing reads, deleted: no revert",
			base: "export function used(a: number) {\n  return a + 1;\n}\n\nexport function unused(a: number) {\n  return a * 2;\n}\n",
			head: "export function used(a: number) {\n  return a + 1;\n}\n",
			want: []string{}},
		{name: "an exported function another file reads, deleted: its revert",
			base: "export function used(a: number) {\n  return a + 1;\n}\n\nexport function unused(a: number) {\n  return a * 2;\n}\n",
			head: "export function used(a: number) {\n  return a + 1;\n}\n",
			read: []string{"unused"},
			want: []string{"<module> Revert  => \nexport function unused(a: number) {\n  return a * 2;\n}\n"}},
		{name: "an exported constant nothing reads, deleted: no revert",
			base: "export const RATE = 1.2;\nexport function used(a: number) {\n  return a + 1;\n}\n",
			head: "export function used(a: number) {\n  return a + 1;\n}\n",
			want: []string{}},
		{name: "an exported function the file itself still reads (typeof), deleted: its revert",
			base: "export function used(a: number) {\n  return typeof unused === \"function\" ? 1 : a;\n}\n\nexport function unused(a: number) {\n  return a * 2;\n}\n",
			head: "export function used(a: number) {\n  return typeof unused === \"function\" ? 1 : a;\n}\n",
			want: []string{"<module> Revert  => \nexport function unused(a: number) {\n  return a * 2;\n}\n"}},
		{name: "a local renamed, binding and uses: no mutant",
			base: "export function total(price: number, qty: number) {\n  const sum = price * qty;\n  return sum > 100 ? sum * 0.9 : sum;\n}\n",
			head: "export function total(price: number, qty: number) {\n  const gross = price * qty;\n  return gross > 100 ? gross * 0.9 : gross;\n}\n",
			want: []string{}},
		{name: "a local renamed and a literal changed: the literal's mutants alone",
			base: "export function total(price: number, qty: number) {\n  const sum = price * qty;\n  return sum > 100 ? sum * 0.9 : sum;\n}\n",
			head: "export function total(price: number, qty: number) {\n  const gross = price * qty;\n  return gross > 100 ? gross * 0.8 : gross;\n}\n",
			want: []string{"total ArithmeticOperator * => /", "total InlineConstant 0.8 => 1", "total Revert 0.8 => 0.9"}},
		{name: "a local renamed, an operand of its use deleted: the revert puts it back under the local's new name",
			base: "export function total(price: number, qty: number) {\n  const sum = price * qty;\n  return sum + sum * 2;\n}\n",
			head: "export function total(price: number, qty: number) {\n  const gross = price * qty;\n  return gross;\n}\n",
			want: []string{"total Revert ; =>  + gross * 2;"}},
		{name: "a parameter renamed: no mutant",
			base: "export function inc(n: number) {\n  return n + 1;\n}\n",
			head: "export function inc(value: number) {\n  return value + 1;\n}\n",
			want: []string{}},
		{name: "a local renamed to a name the function already reads: its mutants",
			base: "export function f(a: number, b: number) {\n  const c = a * 2;\n  return c + b;\n}\n",
			head: "export function f(a: number, b: number) {\n  const b2 = a * 2;\n  return b2 + b2;\n}\n",
			want: []string{"f ArithmeticOperator + => -", "f Revert b2 => b"}},
		{name: "a function moved within its file: no mutant",
			base: "export function a(x: number) {\n  return x + 1;\n}\n\nexport function b(x: number) {\n  return x * 2;\n}\n",
			head: "export function b(x: number) {\n  return x * 2;\n}\n\nexport function a(x: number) {\n  return x + 1;\n}\n",
			want: []string{}},
		{name: "a larger function moved below another: no mutant",
			base: "export function a(x: number) {\n  if (x > 10) {\n    return x - 10;\n  }\n  return x + 1;\n}\n\nexport function b(x: number) {\n  return x * 2;\n}\n",
			head: "export function b(x: number) {\n  return x * 2;\n}\n\nexport function a(x: number) {\n  if (x > 10) {\n    return x - 10;\n  }\n  return x + 1;\n}\n",
			want: []string{}},
		{name: "a function moved, another changed: the change's mutants alone",
			base: "export function a(x: number) {\n  return x + 1;\n}\n\nexport function b(x: number) {\n  return x * 2;\n}\n",
			head: "export function b(x: number) {\n  return x * 3;\n}\n\nexport function a(x: number) {\n  return x + 1;\n}\n",
			want: []string{"b ArithmeticOperator * => /", "b InlineConstant 3 => 4", "b Revert 3 => 2"}},
		{name: "a changed literal an operator mutates too: its revert beside (`* 1.2` → `* 1.25`)",
			base: "export function price(p: number, q: number) {\n  return p * q * 1.2;\n}\n",
			head: "export function price(p: number, q: number) {\n  return p * q * 1.25;\n}\n",
			want: []string{"price ArithmeticOperator * => /", "price InlineConstant 1.25 => 1", "price Revert 1.25 => 1.2"}},
		{name: "a changed operator: its revert beside the operator's mutants",
			base: "export function big(a: number) {\n  return a > 10;\n}\n",
			head: "export function big(a: number) {\n  return a >= 10;\n}\n",
			want: []string{"big EqualityOperator >= => >", "big EqualityOperator >= => <"}}, // the revert is the boundary mutant's program: one mutant
		{name: "a revert that makes an operator's program is that mutant",
			base: "export function f(a: boolean) {\n  return a ? 1 : 3;\n}\n",
			head: "export function f(a: boolean) {\n  return a ? 1 : 2;\n}\n",
			want: []string{"f InlineConstant 2 => 3"}}, // the revert 2 → 3
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := gateMutants(t, tc.base, tc.head, tc.read)
			if !slices.Equal(got, tc.want) {
				t.Errorf("mutants\n%s\nwant\n%s\n(%q)", strings.Join(got, "\n"), strings.Join(tc.want, "\n"), got)
			}
		})
	}
}

// gateMutants are the mutants the gate makes for the change base → head
// of src/f.ts, described "target Operator original => replacement" (the
// original is the replaced code, widened to its expression for an
// operator's mutant), one per program, in order.
func gateMutants(t *testing.T, base, head string, read []string) []string {
	t.Helper()
	const path = "src/f.ts"
	src := []byte(head)
	_, syn := analyzer.ParseSyntax(path, src)
	changed, b := change.DiffBase(path, []byte(base), src)
	file := analyzer.Parse(path, src)
	var jobs []*job
	readSet := map[string]bool{} // measured: none but read
	for _, n := range read {
		readSet[n] = true
	}
	if j, _ := moduleJob(path, src, changed, file.Functions, Options{}, b, readSet); j != nil {
		jobs = append(jobs, j)
	}
	for _, fn := range file.Functions {
		if holds(changed, fn, path, src) {
			jobs = append(jobs, &job{target: &Target{ID: path + "#" + fn.Qual, File: path}, fn: fn, changed: changed, read: readSet})
		}
	}
	progs := newPrograms()
	progs.Original(path, src, syn)
	out := []string{}
	for _, j := range jobs {
		ms := targetMutants(path, src, syn, j, nil, Options{})
		var counted []edit.Mutant
		for _, mu := range ms {
			counted = append(counted, mu.edit)
		}
		rs, _ := reverts(path, src, syn, j, changed, counted, b, Arid{}, nil)
		for _, r := range rs {
			ms = append(ms, &mutant{job: j, edit: r})
		}
		for _, mu := range ms {
			if !progs.Add(mu.edit) {
				continue
			}
			m := mu.edit
			orig, rep := string(src[m.Original.Start.Offset:m.Original.End.Offset]), m.Replacement
			name := strings.TrimPrefix(j.target.ID, path+"#")
			out = append(out, fmt.Sprintf("%s %s %s => %s", name, m.Operator, orig, rep))
		}
	}
	return out
}
