package lab

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/runner"
)

// The batch harness: its code is harness.mjs, a JavaScript module embedded
// as it is (readable and checked as JavaScript: TestHarnessSyntax); the Go
// side writes only a header of data before it (harness). What the harness
// tells the batch comes back as notes, one JSON object a line (note),
// decoded in one place (readNotes).

// harnessBody is the harness's code, after the header.
//
//go:embed harness.mjs
var harnessBody string

// noteKind is the kind of a note the harness appends to the reached file
// ($ORACLE_REACHED) about a block or about the batch; the harness has the
// kinds from its CONFIG (harnessConfig.Notes).
type noteKind string

const (
	// limitNote: the block hit the hit limit (note.Limit, note.Most).
	limitNote noteKind = "limit"
	// preloadNote: a schema was loaded before the harness's first block.
	preloadNote noteKind = "preloaded"
	// globalsNote: a load or a variant added or replaced a global.
	globalsNote noteKind = "globals"
	// slowNote: the variant ran past its time limit (batchWave's limit):
	// its later tests were skipped.
	slowNote noteKind = "slow"
	// noLoadNote: the variant's load threw, at import or in a describe
	// body vitest collected: the tests it registered are not the file's, and
	// it runs alone (AloneLoadThrew).
	noLoadNote noteKind = "noload"
	// timeNote: how long the block took (note.Ms, in milliseconds).
	timeNote noteKind = "time"
	// ranNote: a test of the variant (note.Test, its full name) executed
	// the variant's code; ranAllNote: the variant's code ran outside a test
	// (while the file loaded, or in a beforeAll hook).
	ranNote    noteKind = "ran"
	ranAllNote noteKind = "ranall"
	// concNote: the variant's code ran in a concurrent test, which shares
	// the flag with the tests beside it (so every test counts as having run
	// it, and a kill by one that did not is possible: concurrentKill).
	concNote noteKind = "conc"
	// selNote: the variant ran only the tests of its selection, whose
	// baseline is block note.Base (select.go).
	selNote noteKind = "sel"
	// overlapNote: a block started while another was running: the variants
	// did not run one after the other (they share the switch).
	overlapNote noteKind = "overlap"
)

// note is one note of the harness (a line of the reached file after the
// harness file's path and a tab, in runner.Result.Markers without it): its
// kind and the fields that kind has.
type note struct {
	Kind  noteKind `json:"kind"`
	Block int      `json:"block"` // the block it is about (-1: the batch)
	Base  int      `json:"base"`  // selNote: the block of the selection's baseline (-1: none)
	Test  string   `json:"test"`  // ranNote: the test's full name
	// limitNote: the hit limit, and the most hits a test (or the load) of
	// the original counted, as the harness counted them.
	Limit json.Number `json:"limit"`
	Most  json.Number `json:"most"`
	Ms    *int64      `json:"ms"` // timeNote: the block's time
}

// readNotes decodes the harness's notes among markers (a run's
// runner.Result.Markers, which may hold other markers too: those and any
// line that is no note are left out), in markers' order.
func readNotes(markers []string) []note {
	var notes []note
	for _, m := range markers {
		if !strings.HasPrefix(m, "{") {
			continue
		}
		n := note{Block: -1, Base: -1}
		d := json.NewDecoder(strings.NewReader(m))
		d.UseNumber()
		if d.Decode(&n) != nil || n.Kind == "" {
			continue
		}
		notes = append(notes, n)
	}
	return notes
}

// harnessConfig is the header's CONFIG: the data harness.mjs reads.
type harnessConfig struct {
	Limit     int64          `json:"limit"` // each variant's time limit, in ms
	HitFloor  int            `json:"hitFloor"`
	HitFactor int            `json:"hitFactor"`
	Aside     []string       `json:"aside"` // the tests set aside (aside.go)
	Env       harnessEnv     `json:"env"`
	Globals   harnessGlobal  `json:"globals"`
	Notes     harnessNotes   `json:"notes"`
	Blocks    []harnessBlock `json:"blocks"`
}

// harnessEnv names the environment variables of the files the harness
// appends to.
type harnessEnv struct {
	Reached  string `json:"reached"`
	Progress string `json:"progress"`
}

// harnessGlobal names the globals the harness shares with the schema
// (edit): the hit counter, the switch, and the record of a schema's load.
type harnessGlobal struct {
	Hits         string `json:"hits"`
	SchemaSwitch string `json:"schemaSwitch"`
	SchemaLoads  string `json:"schemaLoads"`
}

// harnessNotes are the kinds of the notes the harness writes.
type harnessNotes struct {
	Limit     noteKind `json:"limit"`
	Preloaded noteKind `json:"preloaded"`
	Globals   noteKind `json:"globals"`
	Slow      noteKind `json:"slow"`
	NoLoad    noteKind `json:"noLoad"`
	Time      noteKind `json:"time"`
	Ran       noteKind `json:"ran"`
	RanAll    noteKind `json:"ranAll"`
	Conc      noteKind `json:"conc"`
	Sel       noteKind `json:"sel"`
	Overlap   noteKind `json:"overlap"`
}

// harnessBlock is one block as the harness has it: its number, its switch
// value, its selection key and its describe title.
type harnessBlock struct {
	N     int    `json:"n"`
	V     int    `json:"v"`
	Key   int    `json:"key"`
	Title string `json:"title"`
}

// harness is the source of the batch harness for test file base (a name in
// the harness's directory) running blocks in order (each its describe
// block, titled by its title, its notes naming its number), each variant
// within limit: the header (CONFIG, and importTest: the test file's import
// with its literal specifier, which vite resolves once) and harness.mjs.
//
// Per variant: the switch is set before its tests and cleared after; the
// hit counter (edit.HitState) is reset before the variant's beforeAll hooks
// and before each test, unlimited for the original (the opening baseline
// records the most hits its beforeAll hooks or a test counted) and
// limited for a mutant (hr: HitLimitFactor times that, at least
// HitLimitFloor); every test and hook of the test file gets vitest's own
// time-out capped at limit (applied as the file is collected: vitest binds
// a test's time-out when it is defined), and once the variant has run past
// limit its later tests are skipped. The harness appends to
// $ORACLE_PROGRESS as it goes (the runner's Spec.Stall), and to
// $ORACLE_REACHED what the batch reads (its notes). aside are the tests
// set aside (aside.go): every block leaves them out.
func harness(base string, blocks []*block, limit time.Duration, hr hitRule, aside []string) []byte {
	cfg := harnessConfig{
		Limit: limit.Milliseconds(), HitFloor: hr.floor, HitFactor: hr.factor,
		Aside:   append([]string{}, aside...),
		Env:     harnessEnv{Reached: runner.ReachedEnv, Progress: runner.ProgressEnv},
		Globals: harnessGlobal{Hits: edit.HitState, SchemaSwitch: edit.SchemaSwitch, SchemaLoads: edit.SchemaLoads},
		Notes: harnessNotes{Limit: limitNote, Preloaded: preloadNote, Globals: globalsNote, Slow: slowNote, NoLoad: noLoadNote,
			Time: timeNote, Ran: ranNote, RanAll: ranAllNote, Conc: concNote, Sel: selNote, Overlap: overlapNote},
	}
	for _, bl := range blocks {
		cfg.Blocks = append(cfg.Blocks, harnessBlock{N: bl.n, V: bl.v, Key: bl.key, Title: bl.title()})
	}
	data, _ := json.MarshalIndent(cfg, "", "  ")
	spec, _ := jsonString("./" + base)
	var b strings.Builder
	b.WriteString("// Written by oracle prove for a batched run; removed with the sandbox.\n")
	fmt.Fprintf(&b, "const CONFIG = %s;\n", data)
	fmt.Fprintf(&b, "const importTest = () => import(%s);\n", spec)
	b.WriteString(harnessBody)
	return []byte(b.String())
}

// jsonString is s as a JavaScript string literal; an error when s holds a
// character it does not write as is (the harness's import of such a test
// file is not written: its mutants run alone).
func jsonString(s string) (string, error) {
	// A Go-quoted ASCII string is a valid JS string literal when it has no
	// escapes beyond \" and \\ (paths here have none).
	q := fmt.Sprintf("%q", s)
	if strings.ContainsAny(s, "\\\"\n\r") {
		return q, fmt.Errorf("unsupported path %q", s)
	}
	return q, nil
}
