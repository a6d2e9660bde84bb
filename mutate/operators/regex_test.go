package operators

import (
	"encoding/json"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/testenv"
)

// regexCases are Regex's table: every kind of mutation, escapes, classes
// with `]` and `^` inside, flags, the pattern strings of RegExp, the cap,
// and patterns it does not read (nothing).
var regexCases = []opCase{
	// anchors, a predefined class, a quantifier: in the pattern's order
	{`return /^\d+$/.test(a);`, []string{`return /\d+$/.test(a);`, `return /^\D+$/.test(a);`, `return /^\d$/.test(a);`, `return /^\d+/.test(a);`}},
	{`return /\w\W\s\S\D/.test(a);`, []string{`return /\W\W\s\S\D/.test(a);`, `return /\w\w\s\S\D/.test(a);`, `return /\w\W\S\S\D/.test(a);`,
		`return /\w\W\s\s\D/.test(a);`, `return /\w\W\s\S\d/.test(a);`}},
	// classes: `]` escaped or first, `^` inside, negated and back; `[^^]`
	// made `[^]` would match anything: none
	{`return /[\]^a]x/.test(a) || /[^^]/.test(a) || /[^]a]/.test(a);`, []string{`return /[^\]^a]x/.test(a) || /[^^]/.test(a) || /[^]a]/.test(a);`,
		`return /[\]^a]x/.test(a) || /[^^]/.test(a) || /[]a]/.test(a);`}},
	{`return /[^/]+$/gi.exec(a);`, []string{`return /[/]+$/gi.exec(a);`, `return /[^/]$/gi.exec(a);`, `return /[^/]+/gi.exec(a);`}},
	{`return /[\d$^]/.test(a);`, []string{`return /[^\d$^]/.test(a);`, `return /[\D$^]/.test(a);`}},
	// escapes: `\+` is no quantifier, `\\+` is one; `\$` no anchor
	{`return /a\+b\\+\$\^/.test(a);`, []string{`return /a\+b\\\$\^/.test(a);`}},
	// quantifiers, lazy ones and ranges; `{,}` is no quantifier
	{`return /a{2,3}b*?c??/.test(a);`, []string{`return /ab*?c??/.test(a);`, `return /a{2,3}bc??/.test(a);`, `return /a{2,3}b*?c/.test(a);`}},
	{`return /a{2}{,}x{2,}(ab)+/.test(a);`, []string{`return /a{,}x{2,}(ab)+/.test(a);`, `return /a{2}{,}x(ab)+/.test(a);`, `return /a{2}{,}x{2,}(ab)/.test(a);`}},
	// lookarounds
	{`return /a(?=b)(?<!c)(?!d)(?<=e)/.test(a);`, []string{`return /a(?!b)(?<!c)(?!d)(?<=e)/.test(a);`, `return /a(?=b)(?<=c)(?!d)(?<=e)/.test(a);`,
		`return /a(?=b)(?<!c)(?=d)(?<=e)/.test(a);`, `return /a(?=b)(?<!c)(?!d)(?<!e)/.test(a);`}},
	// flags: `\p{L}` is a property with u, the letter p without
	{`return /\p{L}+/u.test(a) || /\p{L}+/.test(a);`, []string{`return /\P{L}+/u.test(a) || /\p{L}+/.test(a);`, `return /\p{L}/u.test(a) || /\p{L}+/.test(a);`,
		`return /\p{L}+/u.test(a) || /\p{L}/.test(a);`}},
	// v: a class that may hold strings is not negated, nor a property of strings; a nested class is left alone
	{`return /[\p{RGI_Emoji}--\q{x}]/v.test(a) || /[[a-z]--[aeiou]]/v.test(a) || /\p{RGI_Emoji}/v.test(a);`,
		[]string{`return /[\p{RGI_Emoji}--\q{x}]/v.test(a) || /[^[a-z]--[aeiou]]/v.test(a) || /\p{RGI_Emoji}/v.test(a);`}},
	// named groups and backreferences
	{`return /(?<y>\d)\k<y>$/.test(a);`, []string{`return /(?<y>\D)\k<y>$/.test(a);`, `return /(?<y>\d)\k<y>/.test(a);`}},
	// RegExp's pattern as a string literal: its escapes kept, its quote
	{`return new RegExp("^\\d+$", "g").test(a) || RegExp('^a$' /* one */).test(a);`, []string{
		`return new RegExp("\\d+$", "g").test(a) || RegExp('^a$' /* one */).test(a);`, `return new RegExp("^\\D+$", "g").test(a) || RegExp('^a$' /* one */).test(a);`,
		`return new RegExp("^\\d$", "g").test(a) || RegExp('^a$' /* one */).test(a);`, `return new RegExp("^\\d+", "g").test(a) || RegExp('^a$' /* one */).test(a);`,
		`return new RegExp("^\\d+$", "g").test(a) || RegExp('a$' /* one */).test(a);`, `return new RegExp("^\\d+$", "g").test(a) || RegExp('^a' /* one */).test(a);`}},
	{`return new RegExp("\u0041+'", 'i') || new RegExp('\'$') || new RegExp("\\p{L}", "u");`, []string{
		`return new RegExp("\u0041'", 'i') || new RegExp('\'$') || new RegExp("\\p{L}", "u");`,
		`return new RegExp("\u0041+'", 'i') || new RegExp('\'') || new RegExp("\\p{L}", "u");`,
		`return new RegExp("\u0041+'", 'i') || new RegExp('\'$') || new RegExp("\\P{L}", "u");`}},
	// an anchor that is a whole alternative goes with one `|` (weapon-regex's
	// tree: the alternative removed); a pattern emptied is none (`//` would
	// be a comment); the same pattern twice is one
	{`return /(^|\/)x/.test(a) || /a|$/.test(a) || /(^)/.test(a) || /(^a|b)/.test(a);`, []string{
		`return /(\/)x/.test(a) || /a|$/.test(a) || /(^)/.test(a) || /(^a|b)/.test(a);`, `return /(^|\/)x/.test(a) || /a/.test(a) || /(^)/.test(a) || /(^a|b)/.test(a);`,
		`return /(^|\/)x/.test(a) || /a|$/.test(a) || /()/.test(a) || /(^a|b)/.test(a);`, `return /(^|\/)x/.test(a) || /a|$/.test(a) || /(^)/.test(a) || /(a|b)/.test(a);`}},
	{`return /^|$/.test(a) || /(?:^|^)/.test(a) || /^/.test(a) || new RegExp("$");`, []string{`return /$/.test(a) || /(?:^|^)/.test(a) || /^/.test(a) || new RegExp("$");`,
		`return /^/.test(a) || /(?:^|^)/.test(a) || /^/.test(a) || new RegExp("$");`, `return /^|$/.test(a) || /(?:^)/.test(a) || /^/.test(a) || new RegExp("$");`}},
	// control escapes in the u mode
	{`return /\r\n?|\n/u.test(a);`, []string{`return /\r\n|\n/u.test(a);`}},
	// the cap: the anchors, then one of each kind, round by round
	{`return /^(\d{4})-(\d{2})-(\d{2})$/.test(a);`, []string{`return /(\d{4})-(\d{2})-(\d{2})$/.test(a);`, `return /^(\D{4})-(\d{2})-(\d{2})$/.test(a);`,
		`return /^(\d)-(\d{2})-(\d{2})$/.test(a);`, `return /^(\d{4})-(\d)-(\d{2})$/.test(a);`, `return /^(\d{4})-(\d{2})-(\d{2})/.test(a);`}},
	// nothing: patterns it does not read (out-of-order range, a modifier
	// group, `\k` without a name, `\c` without a letter, `\u{41}` without
	// u, `\q` with u, nothing to repeat, an unbalanced group), flags it
	// does not know, a pattern that is not a literal, a string that is no
	// RegExp's pattern
	{`return /a{3,2}/.test(a) || /(?i:a)/.test(a) || /\k/.test(a) || /\c/.test(a) || /\u{41}/.test(a) || /\q/u.test(a) || /a**/.test(a);`, nil},
	{`return new RegExp(b).test(a) || new RegExp("^a", b).test(a) || foo("^a") || new RegExp("^a", "x") || new RegExp("(a") || new RegExp("a", "uv");`, nil},
	// a removal that would run two tokens together (`\1` and `0` make
	// `\10`) is none
	{`return /(a)\1^0/.test(a);`, nil},
}

func TestRegex(t *testing.T) {
	table(t, Regex, regexCases)
}

// TestRegexValid: every mutant of the table and of every regular
// expression of the corpus (literals and RegExp's string patterns) is a
// valid regular expression, compiled by node, whenever its original is.
func TestRegexValid(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		testenv.Missing(t, "node is missing")
	}
	var checks []regexCheck
	collect := func(path string, src []byte) {
		_, syn := analyzer.ParseSyntax(path, src)
		if syn == nil {
			return
		}
		c := &Context{Path: path, Src: src, Syn: syn}
		syn.Walk(syn.Root(), func(n Node) bool {
			if !syn.Named(n) || !Regex.Visits(syn.Kind(n)) {
				return true
			}
			ms, _ := Regex.Mutate(c, n)
			if len(ms) == 0 {
				return true
			}
			expr := syn.Text(n)
			if syn.Kind(n) == "string" { // the whole call: its flags
				expr = syn.Text(syn.Parent(syn.Parent(n)))
			}
			ck := regexCheck{Orig: expr}
			for _, m := range ms {
				ch := m.Changes[0]
				at := int(ch.Start - syn.Start(n))
				if syn.Kind(n) == "string" {
					at += strings.Index(expr, syn.Text(n))
				}
				ck.Mutants = append(ck.Mutants, expr[:at]+ch.Text+expr[at+int(ch.End-ch.Start):])
			}
			checks = append(checks, ck)
			return true
		})
	}
	for _, tc := range regexCases {
		collect("x.ts", []byte(tableHead+tc.src+"\n}\n"))
	}
	table := len(checks)
	for i := range checks {
		checks[i].Table = true
	}
	for _, p := range corpus(t) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		collect(p, src)
	}
	corpusN := len(checks) - table
	checks = append(checks, randomRegexChecks()...)
	mutants := 0
	for _, c := range checks {
		mutants += len(c.Mutants)
	}
	t.Logf("%d regular expressions with mutants (%d of the table, %d of the corpus, %d of %d random patterns), %d mutants",
		len(checks), table, corpusN, len(checks)-table-corpusN, regexRandom, mutants)
	in, _ := json.Marshal(checks)
	dir := t.TempDir()
	script := filepath.Join(dir, "check.cjs")
	if err := os.WriteFile(script, []byte(regexCheckScript), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, script)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "" {
		t.Errorf("node: %v\n%s", err, out)
	}
}

// regexCheck is a regular expression as a JS expression and its mutants.
type regexCheck struct {
	Orig    string   `json:"orig"`
	Mutants []string `json:"mutants"`
	Table   bool     `json:"table"` // its original must compile
}

// regexRandom is how many random patterns TestRegexValid checks.
const regexRandom = 20000

// randomRegexChecks are patterns made of random tokens, and some
// meaningless pieces, with random flags (the same each run): those node
// compiles must have mutants it compiles.
func randomRegexChecks() []regexCheck {
	atoms := []string{"a", "^", "$", `\d`, `\W`, `\s`, `\b`, `\B`, ".", "|", "(", ")", "(?:", "(?=", "(?!", "(?<=", "(?<!", "(?<n>", `\k<n>`,
		"[", "]", "[^", "-", "*", "+", "?", "{2}", "{1,3}", "{2,}", "{", "}", "{,}", `\1`, "0", `\0`, `\x41`, `\u0041`, `\u{41}`, `\p{L}`, `\P{Lu}`,
		`\p{RGI_Emoji}`, `\q{ab}`, "--", "&&", `\c`, `\cA`, `\/`, `\-`, `\]`, `\^`, `\\`, `\k`, `\p`, "é", "/", "(?i:"}
	flags := []string{"", "u", "v", "gi"}
	r := rand.New(rand.NewSource(27))
	var out []regexCheck
	for range regexRandom {
		var b strings.Builder
		for range 1 + r.Intn(8) {
			b.WriteString(atoms[r.Intn(len(atoms))])
		}
		p, f := b.String(), flags[r.Intn(len(flags))]
		mode, _ := regexMode(f)
		expr := func(p string) string {
			q, _ := json.Marshal(p)
			return "new RegExp(" + string(q) + `, "` + f + `")`
		}
		c := regexCheck{Orig: expr(p)}
		for _, e := range regexEdits(p, mode) {
			c.Mutants = append(c.Mutants, expr(p[:e.start]+e.text+p[e.end:]))
		}
		if c.Mutants != nil {
			out = append(out, c)
		}
	}
	return out
}

// regexCheckScript evaluates each original and, when it compiles, each of
// its mutants, printing those that do not compile or make no RegExp.
const regexCheckScript = `
const RegExp = globalThis.RegExp;
let input = "";
process.stdin.on("data", (d) => (input += d));
process.stdin.on("end", () => {
  for (const c of JSON.parse(input)) {
    try {
      if (!((0, eval)("(" + c.orig + ")") instanceof RegExp)) continue;
    } catch (e) {
      if (c.table) console.log("the table's " + c.orig + ": " + e.message);
      continue;
    }
    for (const m of c.mutants) {
      try {
        if (!((0, eval)("(" + m + ")") instanceof RegExp)) console.log("not a RegExp: " + m);
      } catch (e) { console.log(c.orig + " -> " + m + ": " + e.message); }
    }
  }
});
`
