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

// -max-lost-work reaches the engine (tenure's EngineConfig.MaxLostWork) and
// the report: with a cap below any victim's lost work (every victim has
// run past its expected runtime, an hour at least, with a thousandth of a
// GPU at least) no set is committed, and the victims are kept with
// lost_work.
func TestMaxLostWorkFlag(t *testing.T) {
	args := []string{"-synthetic", "-jobs", "400", "-seed", "5", "-policies", "requeue"}
	free := runJSON(t, args...)
	capped := runJSON(t, append(args, "-max-lost-work", "1")...)
	if free.Settings.MaxLostWork != 0 || capped.Settings.MaxLostWork != 1 {
		t.Errorf("max_lost_work %v, %v; want 0 and 1", free.Settings.MaxLostWork, capped.Settings.MaxLostWork)
	}
	if free.Results[0].Evictions.Requeue == 0 {
		t.Fatal("no requeue evictions without a cap: the test shows nothing")
	}
	if n := capped.Results[0].Evictions.Requeue; n != 0 {
		t.Errorf("%d requeue evictions under a 1 GPU-s cap, want 0", n)
	}
	lost := 0
	for _, n := range capped.Results[0].Notes {
		if n.Kind == "requeue_outcomes" {
			lost = n.Counts["kept/lost_work"]
		}
	}
	if lost == 0 {
		t.Errorf("no kept/lost_work outcome under the cap: %+v", capped.Results[0].Notes)
	}
	if out := runCLI(t, append(args, "-max-lost-work", "3600")...); !strings.Contains(out, ", max-lost-work 3600 GPU-s;") {
		t.Errorf("the header does not state the cap:\n%s", out)
	}
}

// -sweep max-lost-work=none,1 runs both points, paired by seed: the first
// with no cap, the second with no requeue eviction; the header states the
// grid, not the base value.
func TestMaxLostWorkSweep(t *testing.T) {
	args := []string{"-synthetic", "-jobs", "400", "-seed", "5", "-policies", "requeue", "-sweep", "max-lost-work=none,1"}
	rep := runJSON(t, args...)
	if rep.Sweep == nil || len(rep.Sweep.Points) != 2 {
		t.Fatalf("sweep %+v, want 2 points", rep.Sweep)
	}
	pts := rep.Sweep.Points
	if free, capped := pts[0].Metrics["evictions_requeue"].Mean, pts[1].Metrics["evictions_requeue"].Mean; free == 0 || capped != 0 {
		t.Errorf("requeue evictions %v without a cap, %v under 1 GPU-s; want some and 0", free, capped)
	}
	if g := rep.Settings.MaxLostWorkGrid; g != "{none,1}" {
		t.Errorf("max_lost_work_grid %q, want {none,1}", g)
	}
	if out := runCLI(t, args...); !strings.Contains(out, ", max-lost-work {none,1} GPU-s;") {
		t.Errorf("the header does not state the grid:\n%s", out)
	}
	for _, bad := range []string{"max-lost-work=x", "max-lost-work=-1", "max-lost-work=NaN"} {
		var out, errOut bytes.Buffer
		if err := run([]string{"-synthetic", "-jobs", "50", "-policies", "requeue", "-sweep", bad}, &out, &errOut); err == nil {
			t.Errorf("-sweep %s: no error", bad)
		}
	}
}
