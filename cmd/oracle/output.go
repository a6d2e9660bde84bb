package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"

	"github.com/oracle-ts/oracle/testsuite"
)

// checkWritable tells, before any mutant runs, whether the output file
// given with flag (--report, --html) can be written: an existing file is
// opened for writing (not truncated), a new one made and removed again.
func checkWritable(flag, path string) error {
	if path == "" {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s %s: is a directory, want a file", flag, path)
	}
	_, statErr := os.Lstat(path)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("%s %s: cannot be written (%v): give a writable path", flag, path, err)
	}
	f.Close()
	if errors.Is(statErr, fs.ErrNotExist) {
		os.Remove(path)
	}
	return nil
}

// oracleVersion is the version line and a digest of the executable
// running: a rebuilt oracle (new operators, new rules) never reuses the
// cache of another.
var oracleVersion = sync.OnceValue(func() string {
	v := versionLine()
	exe, err := os.Executable()
	if err != nil {
		return v
	}
	f, err := os.Open(exe)
	if err != nil {
		return v
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return v
	}
	return v + " " + hex.EncodeToString(h.Sum(nil))[:16]
})

// jestInstead says, for a repository with no vitest (internal/vitestloc's
// lookup, the one listing and running use: up to the workspace root),
// whether its tests run on jest (a jest config, a jest dependency or
// package.json "jest" key): what was found, "" when nothing says jest
// (testsuite.RunsJest, the one decision gate's runner and suite share).
func jestInstead(root string) string { return testsuite.RunsJest(root) }
