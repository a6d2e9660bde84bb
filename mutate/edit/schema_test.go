package edit

import (
	"fmt"
	"github.com/oracle-ts/oracle/internal/syntaxcheck"
	"github.com/oracle-ts/oracle/internal/testenv"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// TestSchemaAlone: a change outside a function body, or in a body that
// starts with a directive, is not placed; the schema still holds the rest.
func TestSchemaAlone(t *testing.T) {
	orig := []byte("const limit = 3;\nexport function g(a: number) {\n  return a + limit;\n}\nexport function h() {\n  \"use strict\";\n  return 1;\n}\n")
	edit := func(old, new string) Mutant {
		i := strings.Index(string(orig), old)
		m, err := NewMutant("test", "", "y.ts", orig, []Change{{Start: uint(i), End: uint(i + len(old)), Text: new}})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	ms := []Mutant{edit("limit = 3", "limit = 4"), edit("a + limit", "a - limit"), edit("return 1", "return 2")}
	sc, err := BuildSchema("y.ts", orig, ms, []int{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(sc.Placed) != "[2]" || sc.Alone[1] == "" || sc.Alone[3] == "" {
		t.Errorf("placed %v alone %v", sc.Placed, sc.Alone)
	}
	if !strings.Contains(string(sc.Source), `=== 2) {`+ranRecord+` __oracle_hit__();
  return a - limit;
} else { __oracle_hit__();
  `+covRecord([]int{2})+`return a + limit;
}`) || !sc.Hits || fmt.Sprint(sc.Cover) != "map[2:2]" {
		t.Errorf("schema:\n%s", sc.Source)
	}
	if err := syntaxcheck.Check("z.ts", []byte("function (")); err == nil {
		t.Error("esbuild syntax check passes a broken file")
	}
}

const loopSample = `export function sum(n: number, xs: number[]) {
  let i = 0, t = 0;
  while (i < n) i++;
  for (const x of xs) { t += x; }
  do { t++; } while (t < 0);
  const rec = (k: number): number => { return k <= 0 ? 0 : rec(k - 1); };
  outer: for (let j = 0; j < 2; j++) for (;;) continue outer;
  return i + t + rec(3);
}
`

// TestSchemaHitLimit, run by node: the variant whose loop never ends (the
// increment removed) throws the hit-limit error at once, and marks it;
// variant 0 (the original) counts its hits but is never limited; a schema
// run with no harness counts nothing.
func TestSchemaHitLimit(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		testenv.Missing(t, "node is missing")
	}
	at := strings.Index(loopSample, "i++;")
	m, err := NewMutant("test", "", "l.ts", []byte(loopSample), []Change{{Start: uint(at), End: uint(at + 4), Text: ";"}})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := BuildSchema("l.ts", []byte(loopSample), []Mutant{m}, []int{1})
	if err != nil {
		t.Fatal(err)
	}
	if !sc.Hits {
		t.Fatalf("no hit counts in the schema:\n%s", sc.Source)
	}
	r := api.Transform(string(sc.Source), api.TransformOptions{Loader: api.LoaderTS, Format: api.FormatESModule})
	if len(r.Errors) > 0 {
		t.Fatal(r.Errors[0].Text)
	}
	p := filepath.Join(t.TempDir(), "schema.mjs")
	os.WriteFile(p, r.Code, 0o644)
	driver := `const s = await import(process.argv[1]);
const out = [];
out.push("bare:" + s.sum(5, [1, 2]));
const h = { n: 0, limit: 1e5, hit: false };
globalThis.` + HitState + ` = h;
out.push("orig:" + s.sum(5, [1, 2]) + ":" + h.n);
h.n = 0; h.limit = 3;
out.push("orig-over-limit:" + s.sum(5, [1, 2]) + ":" + h.hit);
h.n = 0; h.limit = 1e5;
globalThis.` + SchemaSwitch + ` = 1;
const t0 = Date.now();
try { s.sum(5, [1, 2]); out.push("mutant returned"); } catch (e) { out.push("mutant:" + e.message.startsWith(` + "`" + HitLimitMessage + "`" + `) + ":" + h.hit); }
out.push("fast:" + (Date.now() - t0 < 5000));
console.log(out.join(" "));`
	b, err := exec.Command(node, "--input-type=module", "-e", driver, p).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, b)
	}
	// sum(5, [1,2]): i = 5, t = 3 (the do loop adds 1: 4), rec(3) = 0: 9.
	// Counted: the entry, 5 + 2 + 1 loop iterations, rec's 4 entries, the
	// labelled loops' 2 + 2: 17.
	if got, want := strings.TrimSpace(string(b)), "bare:9 orig:9:17 orig-over-limit:9:false mutant:true:true fast:true"; got != want {
		t.Errorf("got  %s\nwant %s\nschema:\n%s", got, want, sc.Source)
	}
}

// TestSchemaHitsEveryKind: a mutated body is counted whatever holds it (a
// function declaration, an arrow function, a function expression, a class
// method, a getter, an object literal's method): each kind is parsed on its
// own (not the whole file again) and the counted schema parses.
func TestSchemaHitsEveryKind(t *testing.T) {
	src := `export function a(n: number) { let i = 0; while (i < n) i++; return i; }
export const b = (n: number): number => { let i = 0; while (i < n) i++; return i; };
export const c = function (n: number) { let i = 0; while (i < n) i++; return i; };
export class K {
  #seen = 0;
  private m(n: number) { let i = 0; while (i < n) { i++; this.#seen++; } return super.toString() + i; }
  get g() { let i = 0; while (i < 3) i++; return i; }
}
export const o = { m(n: number) { let i = 0; while (i < n) i++; return i; } };
`
	var ms []Mutant
	var ids []int
	for k := 0; ; k++ {
		at := nthIndex(src, "i++", k)
		if at < 0 {
			break
		}
		m, err := NewMutant("test", fmt.Sprint(k), "k.ts", []byte(src), []Change{{Start: uint(at), End: uint(at + 3), Text: "i--"}})
		if err != nil {
			t.Fatal(err)
		}
		ms, ids = append(ms, m), append(ids, k+1)
	}
	if len(ms) != 6 {
		t.Fatalf("%d mutants", len(ms))
	}
	sc, err := BuildSchema("k.ts", []byte(src), ms, ids)
	if err != nil {
		t.Fatal(err)
	}
	if !sc.Hits || len(sc.Placed) != 6 {
		t.Fatalf("hits %v, placed %v, alone %v:\n%s", sc.Hits, sc.Placed, sc.Alone, sc.Source)
	}
	// Each variant counts its own loop: "{ __oracle_hit__(); i--; }", or
	// "{ __oracle_hit__(); { i--; ... } }" for a block body.
	if got := strings.Count(string(sc.Source), "{ "+hitCall+" i--") + strings.Count(string(sc.Source), "{ "+hitCall+" { i--"); got != 6 {
		t.Errorf("%d counted loops of mutants, want 6:\n%s", got, sc.Source)
	}
}

func nthIndex(s, sub string, n int) int {
	at := -1
	for ; n >= 0; n-- {
		i := strings.Index(s[at+1:], sub)
		if i < 0 {
			return -1
		}
		at += 1 + i
	}
	return at
}
