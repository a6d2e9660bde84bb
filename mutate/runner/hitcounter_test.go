package runner

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// HitCounter's function, run by node: it counts per task of the worker state (a new task
// starts from its own count), stops a task past the limit with msg (once recorded, thrown
// at every hit after), and in record mode writes each power of two a task's count reaches
// from record on; hitsSeen reads both, and markersSeen takes neither for a marker id.
func TestHitCounter(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	reached := filepath.Join(tmp, "reached")
	js := HitCounter("hit", "oracle: stop", "m1", 1000, 0) + "\n" +
		HitCounter("rec", "oracle: stop", "m2", 0, 64) + `
const w = (globalThis.__vitest_worker__ = { current: { name: "a" } });
for (let i = 0; i < 600; i++) hit();
w.current = { name: "b" };
for (let i = 0; i < 600; i++) hit(); // b's own count: no stop
w.current = w.current; // the same task
let msg = "";
try { for (let i = 0; i < 600; i++) hit(); } catch (e) { msg = e.message; }
if (!msg.startsWith("oracle: stop: more than 1000 loop iterations")) throw new Error("no stop past the limit: " + msg);
try { hit(); throw new Error("no throw after the stop"); } catch (e) { if (!e.message.startsWith("oracle: stop")) throw e; }
delete globalThis.__oracleHitCount;
w.current = { name: "c" };
for (let i = 0; i < 300; i++) rec();
w.current = { name: "d" };
for (let i = 0; i < 100; i++) rec();
`
	if err := os.WriteFile(filepath.Join(tmp, "h.mjs"), []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join(tmp, "h.mjs"))
	cmd.Env = append(os.Environ(), ReachedEnv+"="+reached)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	b, _ := os.ReadFile(reached)
	if got, want := string(b), "m1\t@h\t1000\nm2\t@n\t64\nm2\t@n\t128\nm2\t@n\t256\nm2\t@n\t64\n"; got != want {
		t.Errorf("reached file %q, want %q", got, want)
	}
	lines := strings.Split(string(b), "\n")
	if limit, over := hitsSeen(lines, "m1"); limit != 1000 || over != 0 {
		t.Errorf("m1: limit %d, over %d", limit, over)
	}
	if limit, over := hitsSeen(lines, "m2"); limit != 0 || over != 256 {
		t.Errorf("m2: limit %d, over %d", limit, over)
	}
	if _, ids := markersSeen(lines, "m1"); len(ids) != 0 {
		t.Errorf("hit lines read as markers: %v", ids)
	}
	if !strings.Contains(HitCounter("f", "m", "x", 5, 0), "function f() {") {
		t.Error("not a function declaration")
	}
}

// TestCountersReadTheGlobalOnce: the counter (HitCounter) and the marker function
// (RanMarkerFunc) read the global object's properties a bounded number of times however
// often they run: where the global is a vm context's (jest's environments), each such read
// goes through the context's interceptors, and a loop of 10,000,000 hits took tens of
// seconds, past the run's clock, where it must end by counting. Each runs 10,000 times in a
// vm context whose worker state and count are getters that count their reads; the lines
// they write are those of the plain versions.
func TestCountersReadTheGlobalOnce(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	reached := filepath.Join(tmp, "reached")
	call, decl := RanMarkerFunc("ran", "m1")
	code := HitCounter("hit", "oracle: stop", "m2", 0, 4096) + "\n" + decl + "\nfor (let i = 0; i < 10000; i++) { " + call + " hit(); }\n"
	js := `import vm from "node:vm";
const code = ` + strconv.Quote(code) + `;
let reads = 0, count;
const ctx = { process, Reflect, Object, Map, WeakMap, Set, JSON, String, Error };
const worker = { current: { type: "test", name: "t", suite: { name: "", filepath: "f" } } };
Object.defineProperty(ctx, "__oracleJestWorker__", { get() { reads++; return worker; } });
Object.defineProperty(ctx, "__oracleHitCount", { get() { reads++; return count; }, set(v) { count = v; } });
vm.createContext(ctx);
vm.runInContext(code, ctx);
if (reads > 6) throw new Error("the global's worker state and count read " + reads + " times for 10,000 calls each");
`
	if err := os.WriteFile(filepath.Join(tmp, "g.mjs"), []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join(tmp, "g.mjs"))
	cmd.Env = append(os.Environ(), ReachedEnv+"="+reached)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	b, _ := os.ReadFile(reached)
	if got, want := string(b), "m1\t@t\t\"t\"\nm2\t@n\t4096\nm2\t@n\t8192\n"; got != want {
		t.Errorf("reached file %q, want %q", got, want)
	}
}

// TestMarkersOfOldTypeScript: the code oracle writes into a user's file (the markers, the
// counter) uses no syntax newer than TypeScript 3.7 (optional chaining and ??): ts-jest
// with TypeScript 3.9 fails to parse a logical assignment (`??=`, TS 4.0) even under
// @ts-nocheck, and the gate then read a green suite as red (a real jest 26 repository).
func TestMarkersOfOldTypeScript(t *testing.T) {
	call, decl := RanMarkerFunc("ran", "m")
	for name, js := range map[string]string{
		"MarkersStatement": MarkersStatement("a", "b"), "RanMarkerStatement": RanMarkerStatement("m"), "RanMarkerFunc": call + decl,
		"FileMarkerStatement": FileMarkerStatement("m"), "FileMarkersStatement": FileMarkersStatement("a", "b"),
		"HitCounter": HitCounter("hit", "stop", "m", 10, 4),
	} {
		for _, op := range []string{"??=", "||=", "&&="} {
			if strings.Contains(js, op) {
				t.Errorf("%s writes %s (TypeScript 4.0)", name, op)
			}
		}
	}
}
