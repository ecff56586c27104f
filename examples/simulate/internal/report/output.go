package report

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// OutputFile is a file the run writes at its end (-svg, -sweep-svg). It is
// created as a temporary file beside its destination before anything is
// simulated, so a bad path fails at once instead of after the whole run,
// and renamed over the destination only when its content is complete: an
// existing file is never truncated by a run that fails.
type OutputFile struct {
	flagName, path string
	tmp            *os.File
}

// CreateOutput creates the temporary file for path (given by -flagName).
func CreateOutput(flagName, path string) (*OutputFile, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("simulate: -%s: %s is a directory", flagName, path)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("simulate: -%s: cannot write %s: %w", flagName, path, err)
	}
	return &OutputFile{flagName: flagName, path: path, tmp: tmp}, nil
}

// Commit writes content and renames the file over its destination.
func (o *OutputFile) Commit(content string) error {
	f := o.tmp
	o.tmp = nil
	err := f.Chmod(0o644) // CreateTemp's 0600 would hide a plot from others
	if err == nil {
		_, err = io.WriteString(f, content)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), o.path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("simulate: -%s: %w", o.flagName, err)
	}
	return nil
}

// Discard removes the temporary file unless commit ran; nil-safe, for defer.
func (o *OutputFile) Discard() {
	if o == nil || o.tmp == nil {
		return
	}
	o.tmp.Close()
	os.Remove(o.tmp.Name())
	o.tmp = nil
}
