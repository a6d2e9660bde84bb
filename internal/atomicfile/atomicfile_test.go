package atomicfile

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// TestWrite: the file holds the new bytes with the mode asked for, its
// directory made; no temporary file is left, on success or failure.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	dst := filepath.Join(dir, "a", "b", "f.json")
	if err := Write(dst, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(dst, []byte("two"), 0o640); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(dst)
	if err != nil || string(b) != "two" {
		t.Fatalf("%q %v", b, err)
	}
	if fi, _ := os.Stat(dst); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	assertOnly(t, filepath.Dir(dst), "f.json")

	// A destination that is a directory: the rename fails, the temporary
	// file goes.
	sub := filepath.Join(dir, "a", "b", "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(sub, []byte("z"), 0o644); err == nil {
		t.Error("writing over a non-empty directory succeeded")
	}
	assertOnly(t, filepath.Dir(dst), "f.json", "sub")
}

// TestWriteReadOnlyDir: a directory that cannot be written is an error,
// the old file unchanged.
func TestWriteReadOnlyDir(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		t.Skip("permissions do not bind here")
	}
	dir := t.TempDir()
	dst := filepath.Join(dir, "f")
	if err := Write(dst, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	if err := Write(dst, []byte("new"), 0o644); err == nil {
		t.Error("no error in a read-only directory")
	}
	if b, _ := os.ReadFile(dst); string(b) != "old" {
		t.Errorf("the old file: %q", b)
	}
}

// TestWriteConcurrentReaders: a reader sees the old bytes or the new ones,
// never a mix or an empty file.
func TestWriteConcurrentReaders(t *testing.T) {
	dst := filepath.Join(t.TempDir(), "f")
	a, b := strings.Repeat("a", 1<<16), strings.Repeat("b", 1<<16)
	if err := Write(dst, []byte(a), 0o644); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 200; i++ {
			data := a
			if i%2 == 1 {
				data = b
			}
			if err := Write(dst, []byte(data), 0o644); err != nil {
				t.Error(err)
				return
			}
		}
		close(stop)
	}()
	for reads := 0; ; reads++ {
		select {
		case <-stop:
			wg.Wait()
			assertOnly(t, filepath.Dir(dst), "f")
			return
		default:
		}
		got, err := os.ReadFile(dst)
		if err != nil || (string(got) != a && string(got) != b) {
			t.Fatalf("read %d: %d bytes, %v", reads, len(got), err)
		}
	}
}

func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(names, ",") {
		t.Errorf("in %s: %v, want %v", dir, got, names)
	}
}
