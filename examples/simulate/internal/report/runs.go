package report

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"
)

// metric is one headline figure of a result, the unit of -runs statistics
// and of -sweep tables and plots.
type metric struct {
	name  string // stable key (JSON, -sweep-axes)
	label string // table heading
	value float64
}

// MetricNames lists the headline metrics, in table order.
var MetricNames = []string{"gpu_util_pct", "useful_util_pct", "goodput_gpu_hours", "goodput_done_gpu_hours", "evictions", "thrash",
	"lost_gpu_hours", "unfinished", "wait_p95_ls_h", "wait_p95_burstable_h", "wait_p95_be_h", "jain_across"}

// headline returns r's headline metrics, in metricNames order.
func headline(r Result) []metric {
	p95 := func(class string) float64 {
		for _, w := range r.Wait {
			if w.Class == class {
				return w.P95 / 3600
			}
		}
		return 0
	}
	return []metric{
		{"gpu_util_pct", "GPU util %", 100 * r.Utilisation.Total},
		{"useful_util_pct", "useful %", 100 * r.Utilisation.Useful},
		{"goodput_gpu_hours", "goodput GPU-h", r.GoodputGPUHours},
		{"goodput_done_gpu_hours", "of jobs done", r.Goodput.Done},
		{"evictions", "evictions", float64(r.Evictions.Total)},
		{"thrash", "thrash", float64(r.Thrash)},
		{"lost_gpu_hours", "lost GPU-h", r.LostGPUHours},
		{"unfinished", "unfinished", float64(r.Unfinished)},
		{"wait_p95_ls_h", "LS p95 wait h", p95("LS")},
		{"wait_p95_burstable_h", "Burstable p95 wait h", p95("Burstable")},
		{"wait_p95_be_h", "BE p95 wait h", p95("BE")},
		{"jain_across", "Jain all queues", r.Fairness.Across},
	}
}

// Stat is a metric's mean over runs with its 95% confidence interval
// (Student's t, runs − 1 degrees of freedom): the true mean lies in
// Mean ± CI95 with 95% confidence. With one run CI95 is 0.
type Stat struct {
	Mean float64 `json:"mean"`
	CI95 float64 `json:"ci95"`
}

// summarise returns the mean of xs and its 95% half-width.
func summarise(xs []float64) Stat {
	n := float64(len(xs))
	if n == 0 {
		return Stat{}
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / n
	if len(xs) < 2 {
		return Stat{Mean: mean}
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / (n - 1))
	return Stat{Mean: mean, CI95: tQuantile975(len(xs)-1) * sd / math.Sqrt(n)}
}

// tTable holds Student's t 0.975 quantiles for 1..30 degrees of freedom.
var tTable = [...]float64{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}

// tQuantile975 returns Student's t 0.975 quantile for df degrees of
// freedom: from the table up to 30, then the Cornish–Fisher expansion
// around the normal quantile (within 0.001 of the exact value there).
func tQuantile975(df int) float64 {
	if df < 1 {
		return math.Inf(1)
	}
	if df <= len(tTable) {
		return tTable[df-1]
	}
	const z = 1.959963984540054
	d := float64(df)
	return z + (z*z*z+z)/(4*d) + (5*math.Pow(z, 5)+16*z*z*z+3*z)/(96*d*d)
}

// PolicyStat is one policy's statistic of one metric over the runs, and
// its difference from the first policy, paired by seed (the runs of one
// seed share their workload, so the paired interval is the honest one).
// WithinNoise says the difference's interval contains 0.
type PolicyStat struct {
	Policy      string `json:"policy"`
	Stat        Stat   `json:"stat"`
	Diff        Stat   `json:"diff_vs_first"`
	WithinNoise bool   `json:"within_noise"`
}

// MetricStats is one metric over the runs, per policy.
type MetricStats struct {
	Metric   string       `json:"metric"`
	Label    string       `json:"label"`
	Policies []PolicyStat `json:"policies"`
}

// RunsReport is the -runs summary: seeds, and every headline metric's
// statistics per policy.
type RunsReport struct {
	Seeds   []int64       `json:"seeds"`
	Metrics []MetricStats `json:"metrics"`
}

// AggregateRuns summarises results[seed][policy].
func AggregateRuns(seeds []int64, policies []string, results [][]Result) *RunsReport {
	rr := &RunsReport{Seeds: seeds}
	values := make([][][]metric, len(results)) // [seed][policy][metric]
	for s := range results {
		for p := range results[s] {
			values[s] = append(values[s], headline(results[s][p]))
		}
	}
	for m, name := range MetricNames {
		ms := MetricStats{Metric: name, Label: values[0][0][m].label}
		for p, pol := range policies {
			var xs, ds []float64
			for s := range values {
				xs = append(xs, values[s][p][m].value)
				ds = append(ds, values[s][p][m].value-values[s][0][m].value)
			}
			ps := PolicyStat{Policy: pol, Stat: summarise(xs)}
			if p > 0 {
				ps.Diff = summarise(ds)
				ps.WithinNoise = math.Abs(ps.Diff.Mean) <= ps.Diff.CI95
			}
			ms.Policies = append(ms.Policies, ps)
		}
		rr.Metrics = append(rr.Metrics, ms)
	}
	return rr
}

// fmtStat renders mean ± CI95 with a precision fitting the mean.
func fmtStat(s Stat) string {
	prec := 1
	if a := math.Abs(s.Mean); a > 0 && a < 1 {
		prec = 3
	}
	return fmt.Sprintf("%.*f ±%.*f", prec, s.Mean, prec, s.CI95)
}

// writeRuns prints the -runs table: one row per metric, one column per
// policy, "≈" marking a difference from the first policy within the noise.
func writeRuns(w io.Writer, rr *RunsReport) error {
	if len(rr.Metrics) == 0 {
		return nil
	}
	first := rr.Metrics[0].Policies[0].Policy
	fmt.Fprintf(w, "%d runs (seeds %d..%d): mean ±95%% interval (Student's t); ≈: the difference from %s is within the noise (its 95%% interval, paired by seed, contains 0)\n",
		len(rr.Seeds), rr.Seeds[0], rr.Seeds[len(rr.Seeds)-1], first)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "metric\t")
	for _, p := range rr.Metrics[0].Policies {
		fmt.Fprintf(tw, "%s\t", p.Policy)
	}
	fmt.Fprintln(tw)
	for _, m := range rr.Metrics {
		fmt.Fprintf(tw, "%s\t", m.Label)
		for i, p := range m.Policies {
			mark := ""
			if i > 0 && p.WithinNoise {
				mark = " ≈"
			}
			fmt.Fprintf(tw, "%s%s\t", fmtStat(p.Stat), mark)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}
