package report

import (
	"strings"
	"testing"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/compare"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/stats"
)

// Differences are paired by seed: B is always A + 1 (a difference with no
// spread, so it differs, though the two means' own intervals overlap
// widely); C is A plus noise around 0.
func TestAggregateRunsPaired(t *testing.T) {
	res := func(evictions int) Result { return Result{Evictions: Evictions{Total: evictions}} }
	a := []int{10, 50, 90}
	var results [][]Result
	for i, x := range a {
		results = append(results, []Result{res(x), res(x + 1), res(x + []int{-2, 1, 1}[i])})
	}
	rr := AggregateRuns([]int64{1, 2, 3}, []string{"A", "B", "C"}, results)
	var ev compare.MetricReport
	for _, m := range rr.Metrics {
		if m.Metric == "evictions" {
			ev = m
		}
	}
	if b := ev.Arms[1]; b.Diff.Mean != 1 || b.Diff.Lo != 1 || !b.Diff.Differs {
		t.Errorf("B: %+v, want a difference of exactly 1 that differs", b.Diff)
	}
	if c := ev.Arms[2]; c.Diff.Mean != 0 || c.Diff.Differs {
		t.Errorf("C: %+v, want no difference", c.Diff)
	}
	if a := ev.Arms[0]; a.Mean != 50 || a.Interval != "bootstrap-t" || a.Lo != 0 || a.Hi < 149 || a.Diff != nil {
		t.Errorf("A: %+v, want mean 50 with a bootstrap-t interval clamped at 0, at least Student's t's 149.4 above", a)
	}
	if a := ev.Arms[0]; len(a.PerSeed) != 3 || a.PerSeed[2] != stats.Exact(90) {
		t.Errorf("A per seed: %+v", a.PerSeed)
	}
}

// A wait p95 that is a lower bound in one run stays marked in the
// aggregate, and its difference gets a sign test: seed 1's bound 2 is
// above A's 1, seed 2 is exact.
func TestAggregateRunsKeepsLowerBounds(t *testing.T) {
	res := func(p95 float64, lb bool) Result {
		return Result{Wait: []ClassWait{{Class: "BE", P95: p95 * 3600, P95LowerBound: lb}}}
	}
	results := [][]Result{{res(1, false), res(2, true)}, {res(1.5, false), res(2.5, false)}}
	rr := AggregateRuns([]int64{1, 2}, []string{"A", "B"}, results)
	for _, m := range rr.Metrics {
		if m.Metric != "wait_p95_be_h" {
			continue
		}
		if b := m.Arms[1]; !b.LowerBound || b.Censored != 1 || b.Diff.Test != "sign" || b.Diff.Support.Above != 2 {
			t.Errorf("B: %+v %+v", b, b.Diff)
		}
		if a := m.Arms[0]; a.LowerBound {
			t.Errorf("A is exact: %+v", a)
		}
	}
	var b strings.Builder
	if err := writeRuns(&b, rr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "≥2.2 [") {
		t.Errorf("the text lacks the lower-bound mark:\n%s", b.String())
	}
}
