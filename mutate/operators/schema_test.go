package operators

import (
	"encoding/json"
	"fmt"
	"github.com/oracle-ts/oracle/internal/testenv"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/mutate/edit"
)

const schemaSample = `const log: string[] = [];
function selectTargets(id: number) { log.push("selectTargets"); return [id]; }
async function enrichItem(t: number[]) { log.push("enrichItem:" + t.length); }
async function updateRecord(id: number, x: object) { log.push("updateRecord:" + JSON.stringify(x)); }
function audit(id: number) { log.push("audit"); return id; }
function notify(x: unknown) { log.push("notify:" + x); return x; }
` + guarded + `
export async function run() {
  const out: string[] = [];
  for (const skip of [undefined, true, false]) {
    log.length = 0;
    try { log.push("ret:" + (await f(1, { skip }))); } catch (e) { log.push("throw:" + (e as Error).message); }
    out.push(log.join(","));
  }
  return out.join("|");
}
`

// TestSchemaVariants: every variant of the schema behaves as its mutant's
// own file, and the default as the original, run by node: the switch picks
// exactly one body, and the original is the default.
func TestSchemaVariants(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		testenv.Missing(t, "node is missing")
	}
	tg := target(t, "x.ts", schemaSample, "f", optsSkip)
	var ps []*analyzer.Call
	for _, p := range []string{"selectTargets", "updateRecord", "audit"} {
		ps = append(ps, call(t, tg, p, 0))
	}
	ms, err := Prove(tg, call(t, tg, "enrichItem", 0), ps)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]int, len(ms))
	for k := range ms {
		ids[k] = k + 1
	}
	sc, err := edit.BuildSchema("x.ts", tg.Src, ms, ids)
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Placed) != len(ms) || len(sc.Alone) != 0 {
		t.Fatalf("placed %v, alone %v", sc.Placed, sc.Alone)
	}
	dir := t.TempDir()
	write := func(name string, src []byte) string {
		r := api.Transform(string(src), api.TransformOptions{Loader: api.LoaderTS, Format: api.FormatESModule})
		if len(r.Errors) > 0 {
			t.Fatalf("%s: %v", name, r.Errors[0].Text)
		}
		p := filepath.Join(dir, name+".mjs")
		if err := os.WriteFile(p, r.Code, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	schema := write("schema", sc.Source)
	files := []string{write("orig", tg.Src)}
	for k, m := range ms {
		files = append(files, write(fmt.Sprintf("m%d", k+1), m.Source()))
	}
	driver := `const [schema, ...files] = process.argv.slice(1); // node -e: no script path in argv
const s = await import(schema);
const out = {};
for (let k = 0; k < files.length; k++) {
  globalThis.__oracleVariant = k === 0 ? undefined : k;
  out["schema" + k] = await s.run();
  delete globalThis.__oracleVariant;
  out["file" + k] = await (await import(files[k])).run();
}
console.log(JSON.stringify(out));`
	cmd := exec.Command(node, append([]string{"--input-type=module", "-e", driver, schema}, files...)...)
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, b)
	}
	var got map[string]string
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	distinct := map[string]bool{}
	for k := range files {
		name := "original"
		if k > 0 {
			name = ms[k-1].Name
		}
		if got[fmt.Sprint("schema", k)] != got[fmt.Sprint("file", k)] {
			t.Errorf("%s: schema variant %q, own file %q", name, got[fmt.Sprint("schema", k)], got[fmt.Sprint("file", k)])
		}
		distinct[got[fmt.Sprint("file", k)]] = true
	}
	if len(distinct) < 5 {
		t.Errorf("the mutants behave alike (%d behaviours): the test cannot tell variants apart", len(distinct))
	}
}
