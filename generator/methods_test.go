package generator

import (
	"strings"
	"testing"
)

// methodRepo is a service class: a constructor parameter property typed with
// a class of the repository, a #private field, an inherited method, a
// closure captured in the constructor, a static method.
func methodRepo(ops string) map[string]string {
	return withTicket(map[string]string{
		"oracle.yaml":    "fixtures:\n  - name: svc\n    file: test/svc.fixture.ts\n",
		"src/pricing.ts": "export class Pricing { quote(n: number) { return n; } }\n",
		"src/base.ts":    "export class Base { protected audit(e: string) { return e; } }\n",
		"src/stats.ts":   "export function compute(n: number) { return n; }\n",
		"src/svc.ts": `import { Base } from './base';
import type { Pricing } from './pricing';
import { compute } from './stats';
export class Svc extends Base {
  #secret = { ping: () => 1 };
  private readonly hook: () => number;
  constructor(private readonly pricing: Pricing) { super(); this.hook = () => pricing.quote(1); }
  run(n: number, opts: { skip?: boolean } = {}) {
    if (!opts.skip) this.pricing.quote(n);
    this.audit("run");
    this.#secret.ping();
    this.hook();
    function inner(this: unknown) { return 1; }
    inner();
  }
  twice(n: number, opts: { skip?: boolean } = {}) {
    this.pricing.quote(0);
    if (!opts.skip) this.pricing.quote(n);
  }
  static report(n: number, opts: { skip?: boolean } = {}) {
    if (!opts.skip) compute(n);
    this.tally();
  }
  static tally() {}
  get size() { return 1; }
}
`,
		"test/svc.fixture.ts": `export const arrange = {
  "Svc.run": async () => { const { Svc } = await import('../src/svc'); const { Pricing } = await import('../src/pricing'); return { self: new Svc(new Pricing()), args: [1, {}] as [number, { skip?: boolean }] }; },
  "Svc.twice": async () => { const { Svc } = await import('../src/svc'); const { Pricing } = await import('../src/pricing'); return { self: new Svc(new Pricing()), args: [1, {}] as [number, { skip?: boolean }] }; },
  "Svc.report": async () => { await import('../src/svc'); return { args: [1, {}] as [number, { skip?: boolean }] }; },
};
`,
	}, ops)
}

// TestMethodObservation: a method's callees written through this are
// observed on the receiver or on the object a field holds; what no spy can
// reach is an error with the reason.
func TestMethodObservation(t *testing.T) {
	op := func(fn, wrap, preserve string) string {
		return "  - kind: conditional-skip\n    function: src/svc.ts#" + fn + "\n    flag: opts.skip\n    wrap: " + wrap + "\n    preserve: [" + preserve + "]\n"
	}
	cases := []struct {
		name, fn, wrap, preserve string
		want                     []string
		err                      string
	}{
		{name: "this.dep.m() on the field's object, this.m() on the receiver (inherited)", fn: "Svc.run", wrap: "{call: this.pricing.quote, occurrence: 1}", preserve: "this.audit",
			want: []string{"this.pricing.quote src/pricing.ts#Pricing.quote instance-spy",
				"this.audit src/base.ts#Base.audit receiver-spy"}},
		{name: "a static method: module callees as for functions, this.m() on the class", fn: "Svc.report", wrap: "compute", preserve: "this.tally",
			want: []string{"compute src/stats.ts#compute hoisted-mock", "this.tally src/svc.ts#Svc.tally receiver-spy"}},
		{name: "a #private field", fn: "Svc.run", wrap: "{call: this.pricing.quote, occurrence: 1}", preserve: "this.#secret.ping",
			err: "cannot observe this.#secret.ping (11:5): #secret is a #private member"},
		{name: "a wrapped call also made at another site", fn: "Svc.twice", wrap: "{call: this.pricing.quote, occurrence: 2}", preserve: "",
			err: "cannot observe this.pricing.quote (18:21): it is also called at 17:5"},
		{name: "a local function of the method", fn: "Svc.run", wrap: "{call: this.pricing.quote, occurrence: 1}", preserve: "inner",
			err: "cannot observe inner (14:5)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := plan(t, methodRepo(op(tc.fn, tc.wrap, tc.preserve)))
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
				got = append(got, ob.Call+" "+ob.Target+" "+string(ob.Strategy))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("observed:\n got  %q\n want %q", got, tc.want)
			}
		})
	}
}

// TestMethodOperationNames: an operation names a function or a method; an
// accessor or a constructor is refused at the manifest line.
func TestMethodOperationNames(t *testing.T) {
	root := writeRepo(t, methodRepo("  - kind: conditional-skip\n    function: src/svc.ts#Svc.size\n    flag: opts.skip\n    wrap: compute\n"))
	in, err := Load(root, root+"/ticket.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Program.Close()
	if _, err := Plan(in); err == nil || !strings.Contains(err.Error(), "Svc.size is a getter") {
		t.Fatalf("got %v, want a manifest error naming the getter", err)
	}
}

// TestFlagPropertyChecked: the flag's property is checked against the
// parameter's declared type (an object type, an interface or class of the
// repository); a type oracle cannot read is accepted with a note in the
// header.
func TestFlagPropertyChecked(t *testing.T) {
	files := func(flag, sig string) map[string]string {
		return withTicket(map[string]string{
			"src/opts.ts": "export interface BaseOpts { verbose?: boolean }\nexport interface Opts extends BaseOpts { skip?: boolean }\nexport type Alias = { skip?: boolean };\n",
			"src/b.ts":    "export function enrich() {}\n",
			"src/a.ts":    "import type { Opts, Alias } from './opts';\nimport { enrich } from './b';\nexport function run(" + sig + ") { if (!o.skip) enrich(); }\n",
		}, "  - kind: conditional-skip\n    function: src/a.ts#run\n    flag: "+flag+"\n    wrap: enrich\n    args: [{}]\n")
	}
	for _, tc := range []struct {
		name, flag, sig, err, note string
	}{
		{"object type", "o.skip", "o: { skip?: boolean }", "", ""},
		{"object type, typo", "o.skp", "o: { skip?: boolean }", `o (declared { skip?: boolean }) has no property "skp" (properties: skip); did you mean "skip"?`, ""},
		{"interface, inherited member", "o.verbose", "o: Opts", "", ""},
		{"interface, typo", "o.skipp", "o: Opts", `has no property "skipp" (properties: skip, verbose); did you mean "skip"?`, ""},
		// shadcn's dryRunComponents: members separated by newlines only.
		{"object type, newline-separated", "o.skipFonts", "o: {\n    overwrite?: boolean\n    skipFonts?: boolean\n  }", "", ""},
		{"object type, newline-separated, typo", "o.skipFont", "o: {\n  overwrite?: boolean\n  skipFonts?: boolean\n}", `(properties: overwrite, skipFonts); did you mean "skipFonts"?`, ""},
		{"object type, mixed separators", "o.skip", "o: {\n  a: number;\n  b: string,\n  c?: boolean\n  skip?: boolean\n}", "", ""},
		{"object type, nested, methods, comments", "o.skip", "o: {\n  // the fonts\n  fonts: {\n    x: number\n    y: number\n  }\n  /* a method */ log(m: string): void\n  cb?: (\n    a: string,\n  ) => void\n  kind:\n    | 'a'\n    | 'b'\n  skip?: boolean // skips\n}", "", ""},
		{"object type, nested member is not the flag's", "o.x", "o: {\n  fonts: {\n    x: number\n  }\n  skip?: boolean\n}", `(properties: fonts, skip)`, ""},
		{"alias: not read", "o.skp", "o: Alias", "", "the type Alias of o is not read by oracle"},
		{"no declared type", "o.skp", "o = {} as any", "", "o has no declared type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeRepo(t, files(tc.flag, tc.sig))
			in, err := Load(root, root+"/ticket.yaml")
			if err != nil {
				t.Fatal(err)
			}
			defer in.Program.Close()
			res, err := Plan(in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			o := res.Operations[0]
			if o.Status != StatusGenerated {
				t.Fatalf("%s: %s", o.Status, o.Reason)
			}
			if got := strings.Contains(string(o.Content), "note: "+tc.note); tc.note != "" && !got || tc.note == "" && strings.Contains(string(o.Content), "note: ") {
				t.Errorf("header note, want %q:\n%.900s", tc.note, o.Content)
			}
		})
	}
}

// TestCallThroughTypedValue: a call the graph pins through a value of
// declared type (`dep.run()` with `dep: Dep`) is not a module export: the
// oracle says it cannot observe it, never mocks the class's module.
func TestCallThroughTypedValue(t *testing.T) {
	root := writeRepo(t, withTicket(map[string]string{
		"src/dep.ts": "export class Dep { run() {} }\n",
		"src/a.ts":   "import type { Dep } from './dep';\nexport function go(dep: Dep, o: { skip?: boolean }) { if (!o.skip) dep.run(); }\n",
	}, "  - kind: conditional-skip\n    function: src/a.ts#go\n    flag: o.skip\n    wrap: dep.run\n    args: [null, {}]\n"))
	in, err := Load(root, root+"/ticket.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Program.Close()
	res, err := Plan(in)
	if err != nil {
		t.Fatal(err)
	}
	if o := res.Operations[0]; o.Status == StatusGenerated || !strings.Contains(o.Reason, "through the value dep") {
		t.Fatalf("%s: %s", o.Status, o.Reason)
	}
}
