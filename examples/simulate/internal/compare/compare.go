package compare

import (
	"math"
	"slices"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/stats"
)

// Metric describes one figure compared across arms.
type Metric struct {
	Name  string // stable key (JSON)
	Label string // table heading
	// Count marks a non-negative count: its interval is a bootstrap-t
	// (see stats.Studentized), its lower limit at least 0.
	Count bool
}

// Arm is one policy or sweep point: Values[m][s] is metric m on seed s.
type Arm struct {
	Name   string
	Values [][]stats.Value
}

// Options tune Compare; the zero value gives alpha 0.05, 2000 bootstrap
// resamples and bootstrap seed 1.
type Options struct {
	Alpha    float64
	BootReps int
	BootSeed uint64
	// Family, when not empty, names the metrics whose differences enter
	// Holm's family (a pre-chosen primary metric, such as a sweep's own
	// effect); the other differences keep their interval and raw p-value
	// but are not tested (Untested "outside the family").
	Family []string
}

// Report is the result of Compare.
type Report struct {
	Seeds   []int64        `json:"seeds"`
	Method  string         `json:"method"`
	Alpha   float64        `json:"alpha"`
	Family  int            `json:"holm_family"`
	Metrics []MetricReport `json:"metrics"`
}

// MetricReport is one metric across the arms.
type MetricReport struct {
	Metric string    `json:"metric"`
	Label  string    `json:"label"`
	Count  bool      `json:"count,omitempty"`
	Arms   []ArmStat `json:"arms"`
}

// ArmStat is one arm's statistic of one metric.
type ArmStat struct {
	Arm  string      `json:"arm"`
	Mean stats.Float `json:"mean"`
	Lo   stats.Float `json:"lo"`
	Hi   stats.Float `json:"hi"`
	// Interval names the method: "t" or "bootstrap-t".
	Interval string `json:"interval"`
	// LowerBound: some seed's value is a lower bound, so Mean, Lo and Hi
	// are too; Censored counts those seeds.
	LowerBound bool          `json:"lower_bound,omitempty"`
	Censored   int           `json:"censored_seeds,omitempty"`
	PerSeed    []stats.Value `json:"per_seed"`
	Diff       *Diff         `json:"diff_vs_first,omitempty"`
}

// Diff is an arm's difference from the first arm, paired by seed.
type Diff struct {
	Mean stats.Float `json:"mean"`
	Lo   stats.Float `json:"lo"`
	Hi   stats.Float `json:"hi"`
	P    stats.Float `json:"p"`
	// PHolm is the Holm-adjusted p-value; Differs is PHolm <= alpha.
	PHolm   stats.Float `json:"p_holm"`
	Differs bool        `json:"differs"`
	// Untested says why the difference was not tested (then PHolm is NaN,
	// null in JSON).
	Untested string `json:"untested,omitempty"`
	// Test names the test behind P: "paired t", or "sign" when a seed's
	// value is a lower bound (then Mean, Lo and Hi bound nothing; P is a
	// sign test over Support that counts unsettled seeds against each
	// direction).
	Test string `json:"test,omitempty"`
	// Support counts the seeds on which the arm is below, above or equal
	// to the first, or unsettled by a lower bound.
	Support Support `json:"support"`
}

// Method describes the statistics in one sentence, for headers.
const Method = "mean with 95% interval (Student's t; for counts a bootstrap-t, never narrower than Student's t); differences from the first arm paired by seed, paired t-test (a sign test where a value is a lower bound), Holm's step-down over all tested differences"

// Compare summarises arms over the shared seeds (every arm must have
// len(metrics) rows of len(seeds) values) and tests each arm after the
// first against the first.
func Compare(seeds []int64, metrics []Metric, arms []Arm, o Options) *Report {
	if o.Alpha == 0 {
		o.Alpha = 0.05
	}
	if o.BootReps == 0 {
		o.BootReps = 2000
	}
	if o.BootSeed == 0 {
		o.BootSeed = 1
	}
	r := &Report{Seeds: seeds, Method: Method, Alpha: o.Alpha}
	var ps []float64
	var diffs []*Diff
	for m, met := range metrics {
		mr := MetricReport{Metric: met.Name, Label: met.Label, Count: met.Count}
		for a, arm := range arms {
			st := summarise(arm.Values[m], met.Count, o.BootReps, intervalSeed(o.BootSeed, met.Name, seeds))
			st.Arm = arm.Name
			if a > 0 {
				st.Diff = pairedDiff(arm.Values[m], arms[0].Values[m])
				if st.Diff.Untested == "" && len(o.Family) > 0 && !slices.Contains(o.Family, met.Name) {
					st.Diff.Untested = "outside the family"
				}
				if st.Diff.Untested == "" {
					ps = append(ps, float64(st.Diff.P))
					diffs = append(diffs, st.Diff)
				}
			}
			mr.Arms = append(mr.Arms, st)
		}
		r.Metrics = append(r.Metrics, mr)
	}
	adj, rej := stats.Holm(ps, o.Alpha)
	for i, d := range diffs {
		d.PHolm, d.Differs = stats.Float(adj[i]), rej[i]
	}
	r.Family = len(ps)
	return r
}

// summarise is one arm's statistic of one metric.
func summarise(vs []stats.Value, count bool, reps int, seed uint64) ArmStat {
	st := ArmStat{PerSeed: vs, Interval: "t"}
	xs := make([]float64, len(vs))
	for i, v := range vs {
		xs[i] = v.V
		if v.Censored {
			st.Censored++
		}
	}
	st.LowerBound = st.Censored > 0
	var iv stats.Interval
	if count {
		st.Interval = "bootstrap-t"
		iv = stats.Studentized(xs, reps, 0.95, seed)
		iv.Lo = max(iv.Lo, 0) // a count's mean is never negative
	} else {
		iv, _ = stats.Summarize(vs)
	}
	st.Mean, st.Lo, st.Hi = stats.Float(iv.Est), stats.Float(iv.Lo), stats.Float(iv.Hi)
	return st
}

// pairedDiff is a−b paired by seed, with a paired t-test; when a value is
// a lower bound, with a sign test over the seeds whose order it settles
// (signP; untested when none does). Untested too with fewer than two
// seeds, or when every seed gives both arms the same value (a metric that does not concern them, such as requeue
// evictions under a policy without requeuing: testing it would only
// enlarge the family).
func pairedDiff(a, b []stats.Value) *Diff {
	xa, xb := make([]float64, len(a)), make([]float64, len(b))
	cens, same := false, true
	for i := range a {
		xa[i], xb[i] = a[i].V, b[i].V
		cens = cens || a[i].Censored || b[i].Censored
		same = same && xa[i] == xb[i]
	}
	pr, err := stats.Paired(xa, xb)
	d := &Diff{Mean: stats.Float(pr.Diff.Est), Lo: stats.Float(pr.Diff.Lo), Hi: stats.Float(pr.Diff.Hi), P: stats.Float(pr.P), PHolm: stats.Float(math.NaN()),
		Test: "paired t"}
	if err == nil {
		d.Support = supportOf(a, b)
	}
	switch {
	case err != nil:
		d.Untested = "unpaired"
	case len(a) < 2:
		d.Untested = "one seed"
	case cens && d.Support.Below+d.Support.Above == 0:
		d.Untested = "lower bounds" // no seed settles an order: nothing to test
	case cens:
		d.Test, d.P = "sign", stats.Float(signP(d.Support))
	case same:
		d.Untested = "identical" // the metric does not tell these arms apart: no test, not in the family
	}
	return d
}
