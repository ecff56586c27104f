package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"
)

// -runs: N seeds per policy, the same whatever the number of cores.
func TestRunsCLI(t *testing.T) {
	args := []string{"-synthetic", "-jobs", "200", "-runs", "3", "-policies", "priority,minruntime"}
	rep := runJSON(t, append(args, "-parallel", "1")...)
	if rep.Runs == nil || len(rep.Runs.Seeds) != 3 || len(rep.Runs.Metrics) != len(report.MetricNames) || rep.Results != nil {
		t.Fatalf("runs report: %+v", rep.Runs)
	}
	if got := rep.Runs.Metrics[0].Arms; len(got) != 2 || got[0].Arm != "priority" || len(got[1].PerSeed) != 3 || got[1].Diff == nil {
		t.Errorf("policies %+v", got)
	}
	if a, b := runCLI(t, append(args, "-parallel", "1")...), runCLI(t, append(args, "-parallel", "3")...); a != b {
		t.Errorf("-parallel 1 and 3 differ:\n%s", cmp.Diff(a, b))
	}
	if out := runCLI(t, args...); !strings.Contains(out, "3 runs (seeds 1..3): mean with 95% interval (Student's t; for counts a bootstrap-t, never narrower than Student's t); differences from the first arm paired by seed, paired t-test (a sign test where a value is a lower bound), Holm's step-down") ||
		!strings.Contains(out, "LS 5-8 GPU max wait h") || !strings.Contains(out, "replicate support:") {
		t.Errorf("text:\n%s", out)
	}
}

// -sweep: a grid of two settings, a row per point and policy, and a plot
// with a point per row.
func TestSweepCLI(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sweep.svg")
	rep := runJSON(t, "-synthetic", "-jobs", "300", "-policies", "minruntime,timebased",
		"-sweep", "min-admit=30m,2h", "-sweep", "reclaim-method=lca,queue", "-sweep-svg", path)
	if rep.Sweep == nil || len(rep.Sweep.Points) != 2*2*2 {
		t.Fatalf("sweep: %+v", rep.Sweep)
	}
	want := []string{"min-admit=30m reclaim-method=lca", "min-admit=30m reclaim-method=lca", "min-admit=30m reclaim-method=queue"}
	for i, w := range want {
		if got := rep.Sweep.Points[i].Setting; got != w {
			t.Errorf("point %d: %q, want %q", i, got, w)
		}
	}
	// min-admit changes only the time-based policy.
	p := rep.Sweep.Points
	if !cmp.Equal(p[0].PerSeed["evictions"], p[4].PerSeed["evictions"]) {
		t.Errorf("minruntime differs across min-admit: %v, %v", p[0].PerSeed["evictions"], p[4].PerSeed["evictions"])
	}
	// The swept setting's own metric, and each point's difference from
	// the first point with the same policy.
	if rep.Sweep.Effect != "evictions_time_based" || p[0].VsFirst != nil || p[1].VsFirst != nil || p[2].VsFirst["evictions"] == nil || p[4].VsFirst["evictions"] == nil {
		t.Errorf("sweep effect %q, diffs %v %v %v", rep.Sweep.Effect, p[0].VsFirst, p[2].VsFirst, p[4].VsFirst)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	circles := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "circle" {
			circles++
		}
	}
	// A point per row — minruntime's rows for the two min-admit values are
	// the same, drawn once — and a legend dot per policy.
	if circles != 4+2+2 {
		t.Errorf("%d circles, want 8", circles)
	}
}

func TestSweepAndRunsErrors(t *testing.T) {
	var out, errOut bytes.Buffer
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-synthetic", "-sweep", "min-admit=30s,2h"}, "-sweep point min-admit=30s: simulate: -min-admit: eligibility:"},
		{[]string{"-synthetic", "-sweep", "seed=1,2"}, "not a setting a sweep can vary"},
		{[]string{"-synthetic", "-sweep", "min-runtime.nosuch=1m"}, "nosuch"},
		{[]string{"-synthetic", "-sweep", "preempt-min-runtime.nosuch=1m"}, "nosuch"},
		{[]string{"-synthetic", "-sweep", "expected-runtime.be=0s,1h"}, "must be positive"},
		{[]string{"-synthetic", "-sweep", "checkpoint=5"}, `invalid duration "5"`},
		{[]string{"-synthetic", "-sweep", "min-admit"}, "want name=value,value"},
		{[]string{"-synthetic", "-sweep", "a=1", "-sweep", "b=1", "-sweep", "c=1"}, "at most two settings"},
		{[]string{"-synthetic", "-sweep-svg", "x.svg"}, "-sweep-svg needs -sweep"},
		{[]string{"-synthetic", "-sweep", "min-admit=1h", "-sweep-svg", "/nonexistent/dir/x.svg"}, "-sweep-svg: safefile: cannot write /nonexistent/dir/x.svg"},
		{[]string{"-sweep-axes", "goodput"}, "-sweep-axes"},
		{[]string{"-parallel", "0"}, "-parallel 0"},
		// -runs reports means and intervals: a plot or a per-queue table
		// of one seed would be silently dropped.
		{[]string{"-synthetic", "-runs", "3", "-svg", "x.svg"}, "-runs reports each metric's mean and interval; -svg, -queues, -waits and -jobs-out are for single runs"},
		{[]string{"-synthetic", "-runs", "3", "-queues"}, "-runs reports each metric's mean and interval; -svg, -queues, -waits and -jobs-out are for single runs"},
		{[]string{"-synthetic", "-sweep", "min-admit=1h", "-queues"}, "-sweep reports a table and -sweep-svg; -svg, -queues, -waits and -jobs-out are for single runs"},
	} {
		if err := run(tc.args, &out, &errOut); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.args, err, tc.want)
		}
	}
}

// With -runs and -sweep the header states no value only some runs used:
// the seed range, and each swept setting's grid in place of its base value.
func TestHeaderMarksSweptAndSeeds(t *testing.T) {
	out := runCLI(t, "-synthetic", "-jobs", "100", "-runs", "2", "-seed", "5", "-policies", "timebased",
		"-sweep", "min-admit=1h,3h", "-sweep", "min-runtime.be-b=1m,2m")
	for _, want := range []string{
		"on 12 nodes / 72 GPUs (seed 5's; each seed draws its own)\n",
		" be-b={1m,2m} (preempt and reclaim;",
		"; min-admit {1h,3h}, newer rule on;",
		"; seeds 5..6\n",
		"  swept: min-admit, min-runtime.be-b (",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("header lacks %q:\n%s", want, out)
		}
	}
	for _, gone := range []string{"min-admit 2h", "seed 5\n"} {
		if strings.Contains(out, gone) {
			t.Errorf("header still states %q:\n%s", gone, out)
		}
	}
	rep := runJSON(t, "-synthetic", "-jobs", "100", "-policies", "requeue", "-sweep", "reclaim-method=lca,queue", "-sweep", "expected-runtime.be=1h,2h")
	s := rep.Settings
	if s.ReclaimMethod != "{lca,queue}" || s.SeedLast != 0 || len(s.Swept) != 2 || s.ExpectedRuntime[0] != (report.QueueSetting{Queue: "be", Duration: "{1h,2h}"}) {
		t.Errorf("settings %+v", s)
	}
}
