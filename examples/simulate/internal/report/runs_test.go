package report

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// Student's t 0.975 quantiles: the table, and the expansion beyond it
// against published values (31: 2.0395, 60: 2.0003, 120: 1.9799).
func TestTQuantile975(t *testing.T) {
	for _, tc := range []struct {
		df   int
		want float64
		tol  float64
	}{{1, 12.706, 0}, {2, 4.303, 0}, {30, 2.042, 0}, {31, 2.0395, 0.001}, {60, 2.0003, 0.001}, {120, 1.9799, 0.001}, {100000, 1.96, 0.001}} {
		if got := tQuantile975(tc.df); math.Abs(got-tc.want) > tc.tol {
			t.Errorf("t(%d) = %v, want %v", tc.df, got, tc.want)
		}
	}
	if !math.IsInf(tQuantile975(0), 1) {
		t.Error("t(0) is not +Inf")
	}
}

// 1, 2, 3, 4: mean 2.5, sample sd √(5/3), half-width t(3)·sd/2.
func TestSummarise(t *testing.T) {
	want := Stat{Mean: 2.5, CI95: 3.182 * math.Sqrt(5.0/3) / 2}
	if diff := cmp.Diff(want, summarise([]float64{1, 2, 3, 4}), cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := summarise([]float64{7}); got != (Stat{Mean: 7}) {
		t.Errorf("one run: %+v", got)
	}
}

// Differences are paired by seed: B is always A + 1 (a difference with no
// spread, not within the noise, though the two means' own intervals
// overlap widely); C is A plus noise around 0.
func TestAggregateRunsPaired(t *testing.T) {
	res := func(evictions int) Result { return Result{Evictions: Evictions{Total: evictions}} }
	a := []int{10, 50, 90}
	var results [][]Result
	for i, x := range a {
		results = append(results, []Result{res(x), res(x + 1), res(x + []int{-2, 1, 1}[i])})
	}
	rr := AggregateRuns([]int64{1, 2, 3}, []string{"A", "B", "C"}, results)
	var ev MetricStats
	for _, m := range rr.Metrics {
		if m.Metric == "evictions" {
			ev = m
		}
	}
	if b := ev.Policies[1]; b.Diff.Mean != 1 || b.Diff.CI95 != 0 || b.WithinNoise {
		t.Errorf("B: %+v, want a difference of exactly 1, not within the noise", b)
	}
	if c := ev.Policies[2]; c.Diff.Mean != 0 || !c.WithinNoise {
		t.Errorf("C: %+v, want within the noise", c)
	}
	if a := ev.Policies[0]; a.Stat.Mean != 50 || a.WithinNoise {
		t.Errorf("A: %+v", a)
	}
}
