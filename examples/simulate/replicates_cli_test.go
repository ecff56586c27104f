package main

import (
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"
)

// Trace replicates: seed 1 is the trace as recorded, other seeds vary the
// node sample, the team assignment and the arrivals, and -runs gives
// intervals over them.
func TestTraceReplicates(t *testing.T) {
	base := runCLI(t, "-policies", "priority", "-runs", "1")
	if one := runCLI(t, "-policies", "priority", "-seed", "1", "-runs", "1"); one != base {
		t.Errorf("seed 1 is not the trace as recorded:\n%s", cmp.Diff(base, one))
	}
	two := runJSON(t, "-policies", "priority", "-seed", "2", "-runs", "1")
	rec := runJSON(t, "-policies", "priority", "-runs", "1")
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
	if got, nodeSeed := traceReplicate(jobs, o); &got[0] != &jobs[0] || nodeSeed != 0 {
		t.Error("the base seed must return the jobs unchanged")
	}
	o.seed = 7
	got, nodeSeed := traceReplicate(jobs, o)
	if nodeSeed == 0 || &got[0] == &jobs[0] {
		t.Fatalf("seed 7: node seed %d, cloned %v", nodeSeed, &got[0] != &jobs[0])
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

// -runs left at 0: ten replicates where the replay samples a trace's
// nodes and no single-run output is asked for, else one.
func TestDefaultRuns(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
	}{
		{nil, sampledTraceRuns},
		{[]string{"-sweep", "checkpoint=0s,30m"}, sampledTraceRuns},
		{[]string{"-runs", "3"}, 3},
		{[]string{"-runs", "1"}, 1},
		{[]string{"-runs", "0"}, sampledTraceRuns},
		{[]string{"-waits"}, 1},
		{[]string{"-queues"}, 1},
		{[]string{"-node-stride", "1", "-speedup", "1"}, 1},
		{[]string{"-nodes", "nodes.csv"}, 1},
		{[]string{"-nodes", "nodes.csv", "-node-stride", "10"}, sampledTraceRuns},
		{[]string{"-synthetic"}, 1},
		{[]string{"-allocation"}, 1},
	} {
		o, err := parseFlags(tc.args, io.Discard)
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if o.runs != tc.want {
			t.Errorf("%q: -runs resolves to %d, want %d", tc.args, o.runs, tc.want)
		}
	}
}
