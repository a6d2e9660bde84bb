package testsuite

import (
	"reflect"
	"slices"
	"testing"
)

func TestListedFilesSkipsLogLines(t *testing.T) {
	for _, tc := range []struct {
		name, out string
		want      []string
	}{
		{"plain", "[\n  {\n    \"file\": \"/r/a.test.ts\"\n  }\n]\n", []string{"/r/a.test.ts"}},
		{"empty", "[]\n", []string{}},
		// astro's logger writes to stdout while the project configs load
		{"astro warnings", "15:16:27 [WARN] Missing pages directory: src/pages\n15:16:28 [WARN] Missing pages directory: src/pages\n[\n  {\n    \"file\": \"/r/b.test.ts\",\n    \"projectName\": \"Basics\"\n  }\n]\n", []string{"/r/b.test.ts"}},
		{"bracketed line first", "[vite] connected\n[\n  {\"file\": \"/r/c.test.ts\"}\n]\n", []string{"/r/c.test.ts"}},
	} {
		files, err := listedFiles([]byte(tc.out))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got := []string{}
		for _, f := range files {
			got = append(got, f.File)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	if _, err := listedFiles([]byte("12:00 [WARN] no list here\n")); err == nil {
		t.Errorf("no list: want an error")
	}
}

// TestRepoRelativeOnce: a file vitest lists for two projects (a browser
// project's two instances: vueuse's chromium and firefox) is one candidate,
// not two (a SKIP's reason named each browser file twice).
func TestRepoRelativeOnce(t *testing.T) {
	root := t.TempDir()
	got := repoRelative(root, []string{root + "/b.browser.test.ts", root + "/a.test.ts", root + "/b.browser.test.ts"})
	if want := []string{"a.test.ts", "b.browser.test.ts"}; !slices.Equal(got, want) {
		t.Errorf("%q, want %q", got, want)
	}
}
