package lab

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/oracle-ts/oracle/internal/testenv"
	"github.com/oracle-ts/oracle/mutate/runner"
)

// mark is the marker (a runner.Result.Markers entry) of a note of kind
// about block (-1: the batch), with the fields kv (name, value, ...), as
// the harness writes it.
func mark(kind noteKind, block int, kv ...any) string {
	m := map[string]any{"kind": kind}
	if block >= 0 {
		m["block"] = block
	}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// configOf is the CONFIG of the harness source src (zero when it has none).
func configOf(src []byte) harnessConfig {
	var cfg harnessConfig
	_, rest, _ := strings.Cut(string(src), "const CONFIG = ")
	data, _, _ := strings.Cut(rest, ";\nconst importTest")
	json.Unmarshal([]byte(data), &cfg)
	return cfg
}

// TestHarnessSyntax: the embedded harness.mjs, and a harness as written
// (its header of data before it), parse as JavaScript modules
// (node --check).
func TestHarnessSyntax(t *testing.T) {
	node := testenv.NeedTool(t, "node")
	dir := t.TempDir()
	blocks := []*block{{n: 0}, {n: 1, v: 3, key: 2}, {n: 2}}
	for name, src := range map[string]string{
		"harness.mjs": harnessBody,
		"written.mjs": string(harness("a.test.ts", blocks, 5*time.Second, batchHits, []string{`s "quoted" </script>`})),
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(node, "--check", p).CombinedOutput(); err != nil {
			t.Errorf("node --check %s: %v\n%s", name, err, out)
		}
	}
}

// TestHarnessHeader: the header holds the batch's data, read back as
// written, and the test file's import with its literal specifier; the
// block titles appear once each, in CONFIG.
func TestHarnessHeader(t *testing.T) {
	blocks := []*block{{n: 0}, {n: 1, v: 3, key: 2}, {n: 2}}
	src := harness("a.test.ts", blocks, 5*time.Second, confirmHits, []string{"s a"})
	cfg := configOf(src)
	want := harnessBlock{N: 1, V: 3, Key: 2, Title: variantTitle(1, 3)}
	if len(cfg.Blocks) != 3 || cfg.Blocks[1] != want || cfg.Limit != 5000 || cfg.HitFloor != confirmHits.floor || cfg.HitFactor != confirmHits.factor ||
		!reflect.DeepEqual(cfg.Aside, []string{"s a"}) || cfg.Env.Reached != runner.ReachedEnv || cfg.Notes.Ran != ranNote {
		t.Errorf("CONFIG: %+v", cfg)
	}
	if !strings.Contains(string(src), "\nconst importTest = () => import(\"./a.test.ts\");\n") {
		t.Errorf("no literal import of the test file:\n%s", src[:min(len(src), 2000)])
	}
	if n := strings.Count(string(src), variantPrefix); n != len(blocks) {
		t.Errorf("%d block titles in the harness, want %d", n, len(blocks))
	}
}

// TestReadNotes: the harness's notes are read from a run's markers, the
// other markers left out; a block hit the hit limit twice reports the
// greater limit as text (as the notes read in sorted order gave).
func TestReadNotes(t *testing.T) {
	blocks := []*block{{n: 0}, {n: 1, v: 2}, {n: 2, v: 3}, {n: 3}}
	r := runner.Result{Markers: []string{
		"oracle-m-1", "oracle-m-1-loaded", "{not json", `{"block":1}`,
		mark(limitNote, 1, "limit", 100000, "most", 500),
		mark(limitNote, 1, "limit", 100000, "most", 50),
		mark(timeNote, 1, "ms", 1234),
		mark(ranNote, 1, "test", variantTitle(1, 2)+" s a"),
		mark(selNote, 2, "base", 3),
		mark(slowNote, 2),
		mark(concNote, 7),
		mark(overlapNote, -1),
	}}
	preloaded, overlapped := readBlocks(r, blocks)
	if preloaded || !overlapped {
		t.Errorf("preloaded %v, overlapped %v", preloaded, overlapped)
	}
	h := blocks[1].heard
	if !h.hit || h.limit != "100000" || h.most != "500" || !h.timed || h.took != 1234*time.Millisecond || !h.ran["s a"] || len(h.ran) != 1 {
		t.Errorf("block 1 heard %+v", h)
	}
	if h := blocks[2].heard; !h.selected || h.sel != blocks[3] || !h.slow || h.hit || h.timed {
		t.Errorf("block 2 heard %+v", h)
	}
	if preloaded, _ := readBlocks(runner.Result{Markers: []string{mark(globalsNote, -1)}}, blocks); !preloaded {
		t.Error("the globals note: not preloaded")
	}
}
