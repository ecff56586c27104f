package main

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/jobsout"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"
)

// On a workload with elastic jobs the export still recomputes utilisation
// (total, useful, wasted) and goodput (done, in progress): each shrink
// event says what the job runs on from then, so the GPU time it holds is
// known between its start and its end, eviction or shrink.
func TestJobsOutRecomputesUtilAndGoodputWithShrinks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "jobs.jsonl")
	rep := runJSON(t, "-synthetic", "-jobs", "2000", "-checkpoint", "30m", "-policies", "priority,minruntime,timebased", "-jobs-out", path)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := jobsout.Read(f, jobsout.JSONLines)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	shrinks := 0
	for _, res := range rep.Results {
		shrinks += res.Evictions.Shrinks
		got := recomputeGPUTime(evs, res.Policy, rep.Workload)
		if got.shrinks != res.Evictions.Shrinks {
			t.Errorf("%s: %d shrink events, report %d shrinks", res.Policy, got.shrinks, res.Evictions.Shrinks)
		}
		u := res.Utilisation
		for _, c := range []struct {
			name      string
			got, want float64
		}{{"util", got.util.Total, u.Total}, {"useful", got.util.Useful, u.Useful}, {"wasted", got.util.Wasted, u.Wasted},
			{"goodput done", got.good.Done, res.Goodput.Done}, {"goodput in progress", got.good.InProgress, res.Goodput.InProgress}} {
			if math.Abs(c.got-c.want) > 1e-9*math.Max(1, math.Abs(c.want)) {
				t.Errorf("%s: %s %.12g recomputed, report %.12g", res.Policy, c.name, c.got, c.want)
			}
		}
	}
	if shrinks == 0 {
		t.Fatal("no policy shrank an elastic job: the test shows nothing")
	}
}

// gpuTime is what recomputeGPUTime derives from one policy's events.
type gpuTime struct {
	util    report.Utilisation
	good    report.Goodput // GPU-hours
	shrinks int
}

// recomputeGPUTime integrates every job's GPU allocation from its events:
// held over the window is utilisation; thrown away (an eviction's lost
// work, the last LostMilliS/level seconds before it) is wasted; kept from
// the window's start to the horizon is goodput, done or in progress.
func recomputeGPUTime(evs []jobsout.Event, policy string, w report.Summary) gpuTime {
	var r gpuTime
	overlap := func(a, b, lo, hi int64) float64 { return float64(max(min(b, hi)-max(a, lo), 0)) }
	type run struct{ level, from int64 }
	running := map[int]run{}
	kept := map[int]float64{}
	var busy, waste, done float64
	hold := func(job int, to, keptTo int64) {
		ru := running[job]
		busy += float64(ru.level) * overlap(ru.from, to, w.WindowStart, w.WindowEnd)
		waste += float64(ru.level) * overlap(keptTo, to, w.WindowStart, w.WindowEnd)
		kept[job] += float64(ru.level) * overlap(ru.from, keptTo, w.WindowStart, w.Horizon)
	}
	for _, e := range evs {
		if e.Policy != policy {
			continue
		}
		switch e.Kind {
		case jobsout.Start:
			running[e.Job] = run{e.GPUMilli, e.Time}
		case jobsout.Shrink:
			r.shrinks++
			hold(e.Job, e.Time, e.Time)
			running[e.Job] = run{e.GPUMilli, e.Time}
		case jobsout.Evict:
			lost := int64(e.LostMilliS) / running[e.Job].level
			hold(e.Job, e.Time, e.Time-lost)
			delete(running, e.Job)
		case jobsout.Finish:
			hold(e.Job, e.Time, e.Time)
			delete(running, e.Job)
			done += kept[e.Job]
			delete(kept, e.Job)
		case jobsout.Running:
			hold(e.Job, e.Time, e.Time)
			delete(running, e.Job)
		}
	}
	var inProgress float64
	for _, k := range kept {
		inProgress += k
	}
	c := float64(w.GPUs) * 1000 * float64(w.WindowEnd-w.WindowStart)
	r.util = report.Utilisation{Total: busy / c, Useful: (busy - waste) / c, Wasted: waste / c}
	r.good = report.Goodput{Done: done / 1000 / 3600, InProgress: inProgress / 1000 / 3600}
	return r
}
