package main

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/jobsout"
)

// The per-job export is enough to recompute headline metrics outside the
// tool: here the evictions by cause, the lost GPU-hours, and every class's
// p95 wait (completion − arrival − work for the jobs done, the wait so far
// for those still waiting or running at the end), recomputed from the
// CSV and the JSON Lines export and compared with the report.
func TestJobsOutRecomputesHeadlines(t *testing.T) {
	dir := t.TempDir()
	args := []string{"-synthetic", "-jobs", "400", "-checkpoint", "30m", "-policies", "priority,timebased"}
	rep := runJSON(t, append(args, "-jobs-out", filepath.Join(dir, "jobs.csv"))...)
	runJSON(t, append(args, "-jobs-out", filepath.Join(dir, "jobs.jsonl"))...)
	for _, name := range []string{"jobs.csv", "jobs.jsonl"} {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		format, _ := jobsout.FormatFor(name, "")
		evs, err := jobsout.Read(f, format)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, res := range rep.Results {
			got := recompute(evs, res.Policy)
			if got.evictions != res.Evictions.Total || got.byCause["preempt"] != res.Evictions.Preempt || got.byCause["reclaim"] != res.Evictions.Reclaim || got.byCause["time_based"] != res.Evictions.TimeBased {
				t.Errorf("%s %s: evictions %d %v, report %+v", name, res.Policy, got.evictions, got.byCause, res.Evictions)
			}
			if math.Abs(got.lostGPUHours-res.LostGPUHours) > 1e-9 {
				t.Errorf("%s %s: lost %.6f GPU-h, report %.6f", name, res.Policy, got.lostGPUHours, res.LostGPUHours)
			}
			for _, cw := range res.Wait {
				p95, lower := got.p95(cw.Class)
				if p95 != cw.P95 || lower != cw.P95LowerBound {
					t.Errorf("%s %s %s: p95 %v (lower bound %v), report %v (%v)", name, res.Policy, cw.Class, p95, lower, cw.P95, cw.P95LowerBound)
				}
			}
		}
	}
}

type recomputed struct {
	evictions    int
	byCause      map[string]int
	lostGPUHours float64
	waits        map[string][]float64 // by class
	censored     map[string][]float64
}

// recompute derives the metrics from one policy's events alone.
func recompute(evs []jobsout.Event, policy string) recomputed {
	r := recomputed{byCause: map[string]int{}, waits: map[string][]float64{}, censored: map[string][]float64{}}
	type job struct {
		class         string
		arrival, work int64
	}
	jobs := map[int]job{}
	for _, e := range evs {
		if e.Policy != policy {
			continue
		}
		switch e.Kind {
		case jobsout.Arrive:
			jobs[e.Job] = job{e.Class, e.Time, e.Work}
		case jobsout.Evict:
			if e.Cause != "failed_start" {
				r.evictions++
				r.byCause[e.Cause]++
				r.lostGPUHours += e.LostMilliS / 1000 / 3600
			}
		case jobsout.Finish:
			j := jobs[e.Job]
			r.waits[j.class] = append(r.waits[j.class], float64(e.Time-j.arrival-j.work))
		case jobsout.Waiting, jobsout.Running:
			c := jobs[e.Job].class
			r.waits[c] = append(r.waits[c], float64(e.Wait))
			r.censored[c] = append(r.censored[c], float64(e.Wait))
		}
	}
	return r
}

// p95 is the nearest-rank p95 of a class's waits, and whether a censored
// wait at or below it makes it a lower bound (the report's rule).
func (r recomputed) p95(class string) (float64, bool) {
	w := slices.Clone(r.waits[class])
	if len(w) == 0 {
		return 0, false
	}
	slices.Sort(w)
	p := w[int(math.Ceil(0.95*float64(len(w))))-1]
	return p, slices.ContainsFunc(r.censored[class], func(c float64) bool { return c <= p })
}

func TestJobsOutFlags(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a.csv")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-jobs-out", "jobs.txt"}, "simulate: -jobs-out: jobsout: cannot tell the format"},
		{[]string{"-jobs-out-format", "csv"}, "-jobs-out-format needs -jobs-out"},
		{[]string{"-jobs-out", "j.csv", "-jobs-out-format", "xml"}, `format "xml"`},
		{[]string{"-synthetic", "-runs", "2", "-jobs-out", "j.csv"}, "-jobs-out are for single runs"},
		{[]string{"-jobs-out", dir}, "is a directory"},
	} {
		var out, errOut strings.Builder
		if err := run(tc.args, &out, &errOut); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.args, err, tc.want)
		}
	}
}
