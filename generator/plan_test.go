package generator

import (
	"github.com/oracle-ts/oracle/internal/testenv"
	"path/filepath"
	"strings"
	"testing"
)

func writeRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	return testenv.WriteTree(t, "", files)
}

func plan(t *testing.T, files map[string]string) *Result {
	t.Helper()
	root := writeRepo(t, files)
	in, err := Load(root, filepath.Join(root, "ticket.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Program.Close()
	res, err := Plan(in)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// base is a small repository: src/app.ts#run calls a stateless service, a
// repository write next to a seed helper, and a module that loads the
// database the fixture migrates.
func base() map[string]string {
	return map[string]string{
		"oracle.yaml":   "fixtures:\n  - name: app\n    file: test/app.fixture.ts\n",
		"src/db.ts":     "export const db = { rows: [] as number[] };\nexport function migrate() {}\n",
		"src/repo.ts":   "import { db } from './db';\nexport function createRecord() { return 1; }\nexport function updateRecord(id: number) { db.rows.push(id); }\n",
		"src/cache.ts":  "import { db } from './db';\nexport function warm() { return db.rows.length; }\n",
		"src/enrich.ts": "export function enrich(id: number) { return id; }\n",
		"src/barrel.ts": "export * from './enrich';\n",
		"src/app.ts": `import { enrich } from './barrel';
import { updateRecord } from './repo';
import { warm } from './cache';
import { z } from 'zod';
const handlers = { enrich };
function local() {}
export async function run(id: number, opts: { skip?: boolean } = {}) {
  if (!opts.skip) enrich(id);
  updateRecord(id);
  warm();
  local();
  handlers.enrich(id);
  z.string();
}
export async function twice(id: number, opts: { skip?: boolean } = {}) {
  enrich(id);
  if (!opts.skip) enrich(id);
}
`,
		"test/app.fixture.ts": `import { migrate } from '../src/db';
export async function setup() { migrate(); const { createRecord } = await import('../src/repo'); createRecord(); }
export const arrange = {
  run: async () => { await import('../src/app'); return [1, {}] as const; },
  twice: async () => [1, {}] as const,
};
`,
	}
}

func withTicket(files map[string]string, ops string) map[string]string {
	files["ticket.yaml"] = "ticket: T-1\noperations:\n" + ops
	return files
}

// TestStrategyChoice: each observed callee's strategy and reason come from
// structure alone; a callee no strategy can observe is an error naming why.
func TestStrategyChoice(t *testing.T) {
	op := func(wrap, preserve string) string {
		return "  - kind: conditional-skip\n    function: src/app.ts#run\n    flag: opts.skip\n    wrap: " + wrap + "\n    preserve: [" + preserve + "]\n"
	}
	cases := []struct {
		name, wrap, preserve string
		want                 []string // "call target strategy: why" per observed callee
		err                  string
	}{
		{name: "stateless module through a barrel: hoisted mock at the defining module", wrap: "enrich", preserve: "",
			want: []string{"enrich src/enrich.ts#enrich hoisted-mock: fixture app imports nothing from src/enrich.ts or from the modules it loads"}},
		{name: "module the fixture imports a live helper from: in-place spy", wrap: "enrich", preserve: "updateRecord",
			want: []string{"enrich src/enrich.ts#enrich hoisted-mock: fixture app imports nothing from src/enrich.ts or from the modules it loads",
				"updateRecord src/repo.ts#updateRecord in-place-spy: fixture app imports createRecord from the same module"}},
		{name: "module that loads state the fixture sets up: in-place spy", wrap: "enrich", preserve: "warm",
			want: []string{"enrich src/enrich.ts#enrich hoisted-mock: fixture app imports nothing from src/enrich.ts or from the modules it loads",
				"warm src/cache.ts#warm in-place-spy: src/cache.ts loads src/db.ts, which fixture app imports: it initialises against state the fixture sets up at run time"}},
		{name: "same-module local callee", wrap: "enrich", preserve: "local",
			err: "cannot observe local (11:3): it is defined in src/app.ts, the function's own module, and called through its local binding"},
		{name: "callee captured at module load", wrap: "handlers.enrich", preserve: "",
			err: "cannot observe handlers.enrich (12:3): enrich is a property of the object literal handlers (src/app.ts:5), not a declaration; neither a hoisted mock nor an in-place spy can be placed on it"},
		{name: "package outside the repository", wrap: "enrich", preserve: "z.string",
			err: "cannot observe z.string (13:3): it comes from package zod outside the repository"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := plan(t, withTicket(base(), op(tc.wrap, tc.preserve)))
			o := res.Operations[0]
			if tc.err != "" {
				if o.Status != StatusError || !strings.HasPrefix(o.Reason, tc.err) {
					t.Fatalf("got %s %q, want error %q", o.Status, o.Reason, tc.err)
				}
				return
			}
			if o.Status != StatusGenerated {
				t.Fatalf("got %s: %s", o.Status, o.Reason)
			}
			var got []string
			for _, ob := range o.Observed {
				got = append(got, ob.Call+" "+ob.Target+" "+string(ob.Strategy)+": "+ob.Why)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("observed:\n got  %q\n want %q", got, tc.want)
			}
		})
	}
}

// TestWrappedCalleeAtTwoSites: "not called when the flag is set" cannot be
// asserted of one site when the same function is also called elsewhere.
func TestWrappedCalleeAtTwoSites(t *testing.T) {
	res := plan(t, withTicket(base(), "  - kind: conditional-skip\n    function: src/app.ts#twice\n    flag: opts.skip\n    wrap: {call: enrich, occurrence: 2}\n"))
	o := res.Operations[0]
	if o.Status != StatusError || !strings.Contains(o.Reason, "src/enrich.ts#enrich is also called at 16:3 in the body") {
		t.Fatalf("got %s %q", o.Status, o.Reason)
	}
}

// TestFixtureMatching: the most specific covering fixture wins (fewest
// modules, then name); a function no fixture covers is skipped, never given a
// borrowed setup; args stand in for arrange.
func TestFixtureMatching(t *testing.T) {
	files := base()
	files["oracle.yaml"] = `fixtures:
  - name: wide
    file: test/wide.fixture.ts
  - name: app
    file: test/app.fixture.ts
  - name: bapp
    file: test/bapp.fixture.ts
  - name: other
    file: test/other.fixture.ts
`
	files["test/wide.fixture.ts"] = "import '../src/app';\nimport '../src/unrelated';\nexport const arrange = { run: async () => [1, {}] as const };\n"
	files["src/unrelated.ts"] = "export const u = 1;\n"
	files["test/bapp.fixture.ts"] = files["test/app.fixture.ts"]
	files["test/other.fixture.ts"] = "import '../src/enrich';\nexport const arrange = { enrich: async () => [1] as const };\n"
	files["src/lone.ts"] = "import { enrich } from './enrich';\nexport function lone(opts: { skip?: boolean }) { if (!opts.skip) enrich(1); }\n"
	op := func(id, fn, extra string) string {
		return "  - kind: conditional-skip\n    id: " + id + "\n    function: src/" + fn + "\n    flag: opts.skip\n    wrap: enrich\n" + extra
	}
	// app, bapp and wide all stand up src/app.ts and arrange run; app and
	// bapp stand up fewer modules than wide, and app < bapp by name.
	res := plan(t, withTicket(files, op("app-run", "app.ts#run", "")+op("lone", "lone.ts#lone", "")+op("with-args", "lone.ts#lone", "    args: [{}]\n")+op("forced", "app.ts#run", "    fixture: other\n")))
	got := []string{}
	for _, o := range res.Operations {
		got = append(got, o.ID+" "+string(o.Status)+" "+o.Fixture+" "+o.Reason)
	}
	want := []string{
		"app-run generated app ",
		"lone skipped  no fixture stands up src/lone.ts",
		"with-args generated  ",
		"forced skipped  fixture other (chosen by the operation) has no arrange entry for run, and the operation gives no args",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("\n got  %q\n want %q", got, want)
	}

	// A fixture that stands the module up but arranges nothing for the
	// function does not cover it: the wider fixture that does wins.
	files["test/app.fixture.ts"] = "import '../src/app';\nexport const arrange = {};\n"
	files["test/bapp.fixture.ts"] = files["test/app.fixture.ts"]
	res = plan(t, withTicket(files, op("app-run", "app.ts#run", "")))
	if o := res.Operations[0]; o.Fixture != "wide" {
		t.Errorf("only wide covers run: got %q %s %s", o.Fixture, o.Status, o.Reason)
	}
}

// TestPlanDeterministic: the same inputs give byte-identical oracles.
func TestPlanDeterministic(t *testing.T) {
	files := withTicket(base(), "  - kind: conditional-skip\n    function: src/app.ts#run\n    flag: opts.skip\n    wrap: enrich\n    preserve: [updateRecord, warm]\n")
	a := plan(t, files).Operations[0].Content
	for i := 0; i < 3; i++ {
		if b := plan(t, files).Operations[0].Content; string(a) != string(b) {
			t.Fatal("two plans differ")
		}
	}
	if len(a) == 0 {
		t.Fatal("no content")
	}
}

// TestPlanKeepsLocated: every operation of a plan carries what Plan found
// of it in the code, as Locate finds it (prove and audit's tables mutate
// the function from it, without locating it a second time), whatever its
// status.
func TestPlanKeepsLocated(t *testing.T) {
	files := withTicket(base(), "  - kind: conditional-skip\n    function: src/app.ts#run\n    flag: opts.skip\n    wrap: enrich\n    preserve: [updateRecord, warm]\n"+
		"  - kind: conditional-skip\n    function: src/other.ts#other\n    flag: opts.skip\n    wrap: enrich\n")
	files["src/other.ts"] = "import { enrich } from './enrich';\nexport function other(id: number, opts: { skip?: boolean } = {}) {\n  if (!opts.skip) enrich(id);\n}\n"
	root := writeRepo(t, files)
	in, err := Load(root, filepath.Join(root, "ticket.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Program.Close()
	res, err := Plan(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Operations) != 2 || res.Operations[1].Status != StatusSkipped {
		t.Fatalf("want a generated and a skipped operation, got %+v", res.Operations)
	}
	for _, o := range res.Operations {
		want, errs := Locate(in.Program, o.Op)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		got := o.Located
		if got == nil {
			t.Fatalf("%s: no Located", o.ID)
		}
		if got.File != want.File || got.Func != want.Func || got.Param != want.Param || got.Wrap != want.Wrap || len(got.Preserves) != len(want.Preserves) {
			t.Errorf("%s: located %+v, Locate finds %+v", o.ID, got, want)
		}
		for i := range want.Preserves {
			if got.Preserves[i] != want.Preserves[i] {
				t.Errorf("%s: preserve %d at line %d, Locate finds line %d", o.ID, i, got.Preserves[i].Line, want.Preserves[i].Line)
			}
		}
	}
}
