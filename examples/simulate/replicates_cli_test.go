package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"
)

// Trace replicates: seed 1 is the trace as recorded, other seeds vary the
// node sample, the team assignment and the arrivals, and -runs gives
// intervals over them.
func TestTraceReplicates(t *testing.T) {
	base := runCLI(t, "-policies", "priority")
	if one := runCLI(t, "-policies", "priority", "-seed", "1"); one != base {
		t.Errorf("seed 1 is not the trace as recorded:\n%s", cmp.Diff(base, one))
	}
	two := runJSON(t, "-policies", "priority", "-seed", "2")
	rec := runJSON(t, "-policies", "priority")
	if two.Results[0].Evictions == rec.Results[0].Evictions && two.Results[0].GoodputGPUHours == rec.Results[0].GoodputGPUHours {
		t.Error("seed 2 replays the trace exactly as seed 1")
	}
	if !strings.Contains(two.Source, "replicates: seeds 2..2") {
		t.Errorf("source %q does not say it is a replicate", two.Source)
	}
	runs := runJSON(t, "-policies", "priority,minruntime", "-runs", "3", "-tail", "12h")
	if runs.Runs == nil || len(runs.Runs.Metrics[0].Arms[0].PerSeed) != 3 {
		t.Fatalf("trace -runs: %+v", runs.Runs)
	}
}

func TestTraceReplicateDraws(t *testing.T) {
	jobs := []trace.Job{{Name: "a", Arrival: 10}, {Name: "b", Arrival: 1000}, {Name: "c", Arrival: 5000}}
	o := options{teams: 3, nodeStride: 40, jitter: 300e9}
	o.seed = 1
	if got, off := traceReplicate(jobs, o); &got[0] != &jobs[0] || off != 0 {
		t.Error("the base seed must return the jobs unchanged")
	}
	o.seed = 7
	got, off := traceReplicate(jobs, o)
	if off < 0 || off >= 40 || &got[0] == &jobs[0] {
		t.Fatalf("seed 7: offset %d, cloned %v", off, &got[0] != &jobs[0])
	}
	for i := range got {
		if d := got[i].Arrival - jobs[i].Arrival; got[i].Arrival < 0 || (d > 300 || d < -300) || got[i].Team < 0 || got[i].Team >= 3 {
			t.Errorf("job %d: arrival %d (was %d), team %d", i, got[i].Arrival, jobs[i].Arrival, got[i].Team)
		}
	}
	if jobs[0].Arrival != 10 {
		t.Error("traceReplicate modified its input")
	}
}

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
	if err := run([]string{"-synthetic", "-jobs", "50", "-min-admit", "90s", "-policies", "priority"}, &out, &errOut); err != nil || errOut.Len() != 0 {
		t.Errorf("min-admit does not concern priority, yet: %v %q", err, errOut.String())
	}
}

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
