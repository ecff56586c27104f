package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A bad -sweep is one line, not the usage text.
func TestSweepErrorOneLine(t *testing.T) {
	var out, errOut bytes.Buffer
	err := run([]string{"-sweep", "foo"}, &out, &errOut)
	if err == nil || strings.Count(err.Error(), "\n") != 0 || errOut.Len() != 0 {
		t.Errorf("-sweep foo: %v; stderr %q", err, errOut.String())
	}
}

// Checkpoint costs: echoed, refused without checkpoints, and they change
// the run (the model itself is checked by hand in package sim).
func TestCheckpointCostFlags(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run([]string{"-checkpoint-save", "1m"}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "-checkpoint-save needs -checkpoint") {
		t.Errorf("-checkpoint-save alone: %v", err)
	}
	args := []string{"-synthetic", "-jobs", "300", "-policies", "timebased", "-checkpoint", "30m"}
	free := runJSON(t, args...)
	costly := runJSON(t, append(args, "-checkpoint-save", "2m", "-checkpoint-restore", "5m")...)
	if s := costly.Settings; s.CheckpointSave != "2m" || s.CheckpointRestore != "5m" {
		t.Errorf("settings %+v", s)
	}
	if cmp.Equal(free.Results[0].Wait, costly.Results[0].Wait) {
		t.Errorf("costly checkpoints changed no wait: %+v", costly.Results[0].Wait)
	}
}
