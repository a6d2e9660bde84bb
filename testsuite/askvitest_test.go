package testsuite

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/oracle-ts/oracle/callgraph"
)

// Load asks vitest for its test files and its configuration in two node
// processes that run at the same time (each loads the config: the floor of
// a small gate's setup): each fake below waits for the other to have
// started, which only concurrent calls satisfy (one after the other, the
// first gives up waiting and says so). ListTests' error wins when both fail.
func TestLoadAsksVitestConcurrently(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.test.ts"), []byte("import { test } from \"vitest\";\ntest(\"a\", () => {});\n"), 0o644)
	defer func(l func(string, string) ([]string, error), c func(string, string) (*Config, error)) {
		listTests, readConfig = l, c
	}(listTests, readConfig)
	cases := []struct {
		name            string
		listErr, cfgErr error
		wantErr         error
	}{
		{name: "both answer"},
		{name: "the list fails", listErr: errors.New("list")},
		{name: "the config fails", cfgErr: errors.New("config"), wantErr: errors.New("config")},
		{name: "both fail", listErr: errors.New("list"), cfgErr: errors.New("config")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var wg sync.WaitGroup
			wg.Add(2)
			started := make(chan struct{})
			go func() { wg.Wait(); close(started) }()
			var mu sync.Mutex
			var alone []string
			meet := func(who string) {
				wg.Done()
				select {
				case <-started:
				case <-time.After(20 * time.Second):
					mu.Lock()
					alone = append(alone, who)
					mu.Unlock()
				}
			}
			listTests = func(string, string) ([]string, error) {
				meet("vitest list")
				return []string{"a.test.ts"}, tc.listErr
			}
			readConfig = func(string, string) (*Config, error) {
				meet("the config")
				return &Config{Root: "."}, tc.cfgErr
			}
			p, err := callgraph.NewProgram(root)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			s, err := Load(p, Options{})
			want := tc.wantErr
			if tc.listErr != nil {
				want = tc.listErr
			}
			switch {
			case want == nil && err != nil:
				t.Fatalf("Load: %v", err)
			case want != nil && (err == nil || err.Error() != want.Error()):
				t.Fatalf("Load: error %v, want %v", err, want)
			case want == nil && (len(s.Tests) != 1 || s.Tests[0] != "a.test.ts"):
				t.Errorf("tests %v, want [a.test.ts]", s.Tests)
			}
			if len(alone) > 0 {
				t.Errorf("%v waited alone: vitest list and the config were asked one after the other", alone)
			}
		})
	}
}
