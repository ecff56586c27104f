package main

import (
	"bytes"
	"strings"
	"testing"
)

// Settings that make a run meaningless are warned about at once, on
// stderr, and in the report's notes.
func TestWarnings(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run([]string{"-node-stride", "400", "-policies", "priority", "-tail", "1h"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut.String(), "simulate: warning: offered GPU load") || !strings.Contains(out.String(), "note: offered GPU load") {
		t.Errorf("no overload warning:\nstderr %s", errOut.String())
	}
	errOut.Reset()
	if err := run([]string{"-synthetic", "-jobs", "50", "-min-admit", "90s", "-policies", "timebased"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut.String(), "min-admit 1m30s is near zero") {
		t.Errorf("no min-admit warning: %q", errOut.String())
	}
	errOut.Reset()
	// min-admit does not concern priority: not a warning about its value
	// but the no-op rule's error (see TestNoOpFlags).
	err := run([]string{"-synthetic", "-jobs", "50", "-min-admit", "90s", "-policies", "priority"}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "-min-admit needs a policy with time-based preemption") || strings.Contains(errOut.String(), "near zero") {
		t.Errorf("min-admit with priority alone: %v %q", err, errOut.String())
	}
}
