package report

import (
	"fmt"
	"io"
	"math"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/compare"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/stats"
)

// metric is one headline figure of a result, the unit of -runs statistics
// and of -sweep tables and plots. A wait percentile that jobs still waiting
// at the end may have held down is a lower bound, and stays marked as one
// through every aggregate; count marks a non-negative count (bootstrap-t
// intervals).
type metric struct {
	name  string // stable key (JSON, -sweep-axes)
	label string // table heading
	value stats.Value
	count bool
}

// MetricNames lists the headline metrics, in table order.
var MetricNames = []string{"gpu_util_pct", "useful_util_pct", "goodput_gpu_hours", "goodput_done_gpu_hours", "evictions",
	"evictions_preempt", "evictions_reclaim", "evictions_time_based", "evictions_requeue", "thrash",
	"lost_gpu_hours", "unfinished", "wait_p95_ls_h", "wait_p95_burstable_h", "wait_p95_be_h", "wait_max_h",
	"wait_p95_ls_whole_h", "wait_max_ls_whole_h", "wait_p95_burstable_whole_h", "wait_max_burstable_whole_h", "jain_across"}

// headline returns r's headline metrics, in MetricNames order.
func headline(r Result) []metric {
	p95 := func(class string) stats.Value {
		for _, w := range r.Wait {
			if w.Class == class {
				return stats.Value{V: w.P95 / 3600, Censored: w.P95LowerBound}
			}
		}
		return stats.Exact(0)
	}
	x := stats.Exact
	count := func(name, label string, n int) metric { return metric{name, label, x(float64(n)), true} }
	return []metric{
		{"gpu_util_pct", "GPU util %", x(100 * r.Utilisation.Total), false},
		{"useful_util_pct", "useful %", x(100 * r.Utilisation.Useful), false},
		{"goodput_gpu_hours", "goodput GPU-h", x(r.GoodputGPUHours), false},
		{"goodput_done_gpu_hours", "of jobs done", x(r.Goodput.Done), false},
		count("evictions", "evictions", r.Evictions.Total),
		count("evictions_preempt", "preempt", r.Evictions.Preempt),
		count("evictions_reclaim", "reclaim", r.Evictions.Reclaim),
		count("evictions_time_based", "time-based", r.Evictions.TimeBased),
		count("evictions_requeue", "requeue", r.Evictions.Requeue),
		count("thrash", "thrash", r.Thrash),
		{"lost_gpu_hours", "lost GPU-h", x(r.LostGPUHours), false},
		count("unfinished", "unfinished", r.Unfinished),
		{"wait_p95_ls_h", "LS p95 wait h", p95("LS"), false},
		{"wait_p95_burstable_h", "Burstable p95 wait h", p95("Burstable"), false},
		{"wait_p95_be_h", "BE p95 wait h", p95("BE"), false},
		{"wait_max_h", "max wait h", maxWait(r), false},
		{"wait_p95_ls_whole_h", "LS 5-8 GPU p95 wait h", sizeWait(r, "LS", wholeNode, false), false},
		{"wait_max_ls_whole_h", "LS 5-8 GPU max wait h", sizeWait(r, "LS", wholeNode, true), false},
		{"wait_p95_burstable_whole_h", "Burstable 5-8 GPU p95 wait h", sizeWait(r, "Burstable", wholeNode, false), false},
		{"wait_max_burstable_whole_h", "Burstable 5-8 GPU max wait h", sizeWait(r, "Burstable", wholeNode, true), false},
		{"jain_across", "Jain all queues", x(r.Fairness.Across), false},
	}
}

// maxWait is the longest wait of any class in hours, a lower bound when a
// job still waiting at the end could raise it.
func maxWait(r Result) stats.Value {
	var out stats.Value
	for _, c := range r.Waits {
		if c.Max.V/3600 > out.V || (c.Max.V/3600 == out.V && c.Max.Censored) {
			out = stats.Value{V: c.Max.V / 3600, Censored: c.Max.Censored}
		}
	}
	return out
}

// wholeNode is the size bucket of jobs that need whole nodes (5-8 GPUs in
// all: what reservations are for).
const wholeNode = "5-8"

// sizeWait is the p95 (or, with max, the longest) wait in hours of class's
// jobs of the size bucket, a lower bound when a job unfinished at the end
// could raise it; 0 when the run has no such job (as for a class).
func sizeWait(r Result, class, size string, max bool) stats.Value {
	for _, c := range r.Waits {
		if c.Class != class {
			continue
		}
		for _, s := range c.BySize {
			if s.Size == size {
				v := s.P95
				if max {
					v = s.Max
				}
				return stats.Value{V: v.V / 3600, Censored: v.Censored}
			}
		}
	}
	return stats.Exact(0)
}

// Stat is a metric's mean over runs with its 95% interval (Student's t;
// a bootstrap-t for counts; none, null in JSON, for one run).
// LowerBound: some run's value is a lower bound, so these are too.
type Stat struct {
	Mean       stats.Float `json:"mean"`
	Lo         stats.Float `json:"lo"`
	Hi         stats.Float `json:"hi"`
	LowerBound bool        `json:"lower_bound,omitempty"`
}

// statOf is an arm's statistic as a Stat.
func statOf(a compare.ArmStat) Stat {
	return Stat{Mean: a.Mean, Lo: a.Lo, Hi: a.Hi, LowerBound: a.LowerBound}
}

// hasInterval reports whether s has an interval (several runs).
func (s Stat) hasInterval() bool { return !math.IsNaN(float64(s.Lo)) }

// fmtStat renders a Stat: "mean [lo, hi]" with several runs, the value
// alone with one; "≥" marks a lower bound.
func fmtStat(s Stat) string {
	out := fmtValue(float64(s.Mean))
	if s.hasInterval() {
		prec := 1
		if a := math.Abs(float64(s.Mean)); a > 0 && a < 1 {
			prec = 3
		}
		out = fmt.Sprintf("%.*f [%.*f, %.*f]", prec, float64(s.Mean), prec, float64(s.Lo), prec, float64(s.Hi))
	}
	if s.LowerBound {
		out = "≥" + out
	}
	return out
}

// RunsReport is the -runs summary (see package compare): per metric and
// policy the mean with its interval and per-seed values, and each
// policy's difference from the first, paired by seed, under Holm's
// control of the family-wise error.
type RunsReport = compare.Report

// AggregateRuns summarises results[seed][policy].
func AggregateRuns(seeds []int64, policies []string, results [][]Result) *RunsReport {
	ms, arms := metricTable(policies, results)
	return compare.Compare(seeds, ms, arms, compare.Options{})
}

// metricTable arranges results[seed][arm] as compare's metrics and arms.
func metricTable(arms []string, results [][]Result) ([]compare.Metric, []compare.Arm) {
	var ms []compare.Metric
	for _, m := range headline(Result{}) {
		ms = append(ms, compare.Metric{Name: m.name, Label: m.label, Count: m.count})
	}
	out := make([]compare.Arm, len(arms))
	for a, name := range arms {
		out[a] = compare.Arm{Name: name, Values: make([][]stats.Value, len(ms))}
		for s := range results {
			for m, met := range headline(results[s][a]) {
				out[a].Values[m] = append(out[a].Values[m], met.value)
			}
		}
	}
	return ms, out
}

// writeRuns prints the -runs tables.
func writeRuns(w io.Writer, rr *RunsReport) error { return compare.WriteText(w, rr, "policy") }
