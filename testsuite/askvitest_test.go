package testsuite

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/oracle-ts/oracle/callgraph"
)

// Load asks vitest for its configuration and its test files in one node
// process (each process loads the config: the floor of a small gate's
// setup): the CLI's list is asked only of a vitest whose node API lists
// nothing (older than 3), and its error is then Load's.
func TestLoadAsksVitestOnce(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.test.ts"), []byte("import { test } from \"vitest\";\ntest(\"a\", () => {});\n"), 0o644)
	defer func(l func(string, string) ([]string, error), c func(string, string, *warm) (*Config, error)) {
		listTests, readConfig = l, c
	}(listTests, readConfig)
	cases := []struct {
		name            string
		listed          bool
		listErr, cfgErr error
		wantLists       int
		wantErr         error
	}{
		{name: "the node API lists", listed: true},
		{name: "the node API lists, the CLI would fail", listed: true, listErr: errors.New("list")},
		{name: "an old vitest: the CLI lists", wantLists: 1},
		{name: "an old vitest: the CLI fails", listErr: errors.New("list"), wantLists: 1, wantErr: errors.New("list")},
		{name: "the config fails", cfgErr: errors.New("config"), wantErr: errors.New("config")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lists := 0
			listTests = func(string, string) ([]string, error) {
				lists++
				return []string{"a.test.ts"}, tc.listErr
			}
			readConfig = func(string, string, *warm) (*Config, error) {
				if tc.cfgErr != nil {
					return nil, tc.cfgErr
				}
				cfg := &Config{Root: ".", Listed: tc.listed}
				if tc.listed {
					cfg.Tests = []string{"a.test.ts"}
				}
				return cfg, nil
			}
			p, err := callgraph.NewProgram(root)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			s, err := Load(p, Options{})
			switch {
			case tc.wantErr == nil && err != nil:
				t.Fatalf("Load: %v", err)
			case tc.wantErr != nil && (err == nil || err.Error() != tc.wantErr.Error()):
				t.Fatalf("Load: error %v, want %v", err, tc.wantErr)
			case tc.wantErr == nil && !slices.Equal(s.Tests, []string{"a.test.ts"}):
				t.Errorf("tests %v, want [a.test.ts]", s.Tests)
			}
			if lists != tc.wantLists {
				t.Errorf("vitest list asked %d times, want %d", lists, tc.wantLists)
			}
		})
	}
}
