package main

import (
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
