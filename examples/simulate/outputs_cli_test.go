package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -svg through a symbolic link replaces the link's target and keeps the
// link; -svg to a character device writes to it and leaves it a device.
func TestSVGSymlinkAndDevice(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.svg")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "plot.svg")
	if err := os.Symlink("real.svg", link); err != nil {
		t.Fatal(err)
	}
	runCLI(t, "-synthetic", "-jobs", "50", "-policies", "priority", "-svg", link)
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("-svg replaced the symbolic link: %v %v", fi, err)
	}
	if data, _ := os.ReadFile(target); !strings.HasPrefix(string(data), "<svg") {
		t.Errorf("the link's target holds %.20q, want the plot", data)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("%d entries in the directory, want the link and its target", len(ents))
	}
	runCLI(t, "-synthetic", "-jobs", "50", "-policies", "priority", "-svg", os.DevNull)
	if fi, err := os.Lstat(os.DevNull); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		t.Fatalf("%s is no longer a character device: %v %v", os.DevNull, fi, err)
	}
}

// -progress takes auto, always or never; never prints nothing.
func TestProgressFlag(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run([]string{"-synthetic", "-jobs", "50", "-policies", "priority", "-progress", "never"}, &out, &errOut); err != nil || errOut.Len() != 0 {
		t.Errorf("-progress never: %v, stderr %q", err, errOut.String())
	}
	if err := run([]string{"-progress", "loud"}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "simulate: -progress: progress: mode \"loud\"") {
		t.Errorf("-progress loud: %v", err)
	}
}
