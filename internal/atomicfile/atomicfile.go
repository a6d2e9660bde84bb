// Package atomicfile writes a file so that a reader sees the old bytes or the
// new ones, never a half-written file: a temporary file in the same
// directory, renamed over the target.
package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces dst with data (creating its directory), with mode perm.
func Write(dst string, data []byte, perm fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".oracle-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), dst)
}
