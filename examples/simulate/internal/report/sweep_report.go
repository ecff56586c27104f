package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/compare"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/stats"
)

// SweepAxis is one swept setting and its values.
type SweepAxis struct {
	Name   string   `json:"name"`
	Values []string `json:"values"`
}

// SweepPoint is one point of the grid with one policy: the swept values,
// every headline metric (a mean and interval over the runs), and, for the
// points after the first, each metric's difference from the grid's first
// point with the same policy, paired by seed.
type SweepPoint struct {
	Setting string                   `json:"setting"`
	Values  []string                 `json:"values"`
	Policy  string                   `json:"policy"`
	Metrics map[string]Stat          `json:"metrics"`
	PerSeed map[string][]stats.Value `json:"per_seed"`
	VsFirst map[string]*compare.Diff `json:"diff_vs_first_point,omitempty"`
}

// SweepReport is the -sweep result. Effect names the metric the first
// swept setting acts on directly (its own column in the table): its
// differences from the first point are the ones tested, with Holm's
// correction over them (HolmFamily per policy); the other metrics'
// differences are given with intervals but not tested.
type SweepReport struct {
	Axes       []SweepAxis  `json:"axes"`
	Runs       int          `json:"runs"`
	Effect     string       `json:"effect_metric"`
	HolmFamily int          `json:"holm_family_per_policy"`
	Points     []SweepPoint `json:"points"`
}

// AggregateSweep summarises results[case][seed][policy]; labels[case] and
// values[case] name each point of the grid, seeds the runs' seeds.
func AggregateSweep(axes []SweepAxis, labels []string, values [][]string, policies []string, seeds []int64, results [][][]Result) *SweepReport {
	sr := &SweepReport{Axes: axes, Runs: len(results[0]), Effect: EffectMetric(axes[0].Name)}
	sr.Points = make([]SweepPoint, len(labels)*len(policies))
	for p, pol := range policies {
		bySeed := make([][]Result, len(seeds)) // [seed][case]
		for s := range seeds {
			for c := range labels {
				bySeed[s] = append(bySeed[s], results[c][s][p])
			}
		}
		ms, arms := metricTable(labels, bySeed)
		// The swept setting's own metric is the one tested: Holm's family
		// is its differences from the first point, not every column's.
		rep := compare.Compare(seeds, ms, arms, compare.Options{Family: []string{sr.Effect}})
		sr.HolmFamily = max(sr.HolmFamily, rep.Family)
		for c := range labels {
			pt := SweepPoint{Setting: labels[c], Values: values[c], Policy: pol,
				Metrics: map[string]Stat{}, PerSeed: map[string][]stats.Value{}}
			for _, m := range rep.Metrics {
				a := m.Arms[c]
				pt.Metrics[m.Metric], pt.PerSeed[m.Metric] = statOf(a), a.PerSeed
				if a.Diff != nil {
					if pt.VsFirst == nil {
						pt.VsFirst = map[string]*compare.Diff{}
					}
					pt.VsFirst[m.Metric] = a.Diff
				}
			}
			sr.Points[c*len(policies)+p] = pt
		}
	}
	return sr
}

// EffectMetric names the headline metric a swept setting acts on
// directly: the eviction cause it governs, the lost work for checkpoints
// and the requeue policy's cap on it, the longest wait for reservations.
func EffectMetric(setting string) string {
	name, _, _ := strings.Cut(setting, ".")
	switch name {
	case "preempt-min-runtime":
		return "evictions_preempt"
	case "min-runtime", "reclaim-method":
		return "evictions_reclaim"
	case "expected-runtime", "requeue-delay":
		return "evictions_requeue"
	case "min-admit":
		return "evictions_time_based"
	case "checkpoint", "max-lost-work":
		return "lost_gpu_hours"
	case "reserve-after":
		return "wait_max_h"
	}
	return "evictions"
}

// sweepColumns are the metrics of the sweep table.
var sweepColumns = []string{"goodput_gpu_hours", "lost_gpu_hours", "evictions", "thrash", "unfinished", "wait_p95_ls_h", "wait_p95_burstable_h", "wait_p95_be_h", "wait_max_h", "jain_across"}

func metricLabel(name string) string {
	for _, m := range headline(Result{}) {
		if m.name == name {
			return m.label
		}
	}
	return name
}

// writeSweep prints the sweep table: one row per point and policy, the
// swept setting's own metric first and its difference from the first
// point (paired by seed, Holm-corrected: "*" when it differs).
func writeSweep(w io.Writer, sr *SweepReport) error {
	var names []string
	for _, a := range sr.Axes {
		names = append(names, a.Name)
	}
	fmt.Fprintf(w, "sweep over %s", strings.Join(names, " × "))
	if sr.Runs > 1 {
		fmt.Fprintf(w, " (%d runs per point: mean [95%% interval], bootstrap-t for counts; Δ: difference from the first point, paired by seed; *: differs after Holm's correction over the %d differences of the swept setting's own metric tested per policy)", sr.Runs, sr.HolmFamily)
	} else {
		fmt.Fprint(w, " (one run per point: no intervals; Δ: difference from the first point)")
	}
	fmt.Fprintln(w, "; ≥: a lower bound (jobs still waiting at the end)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, n := range names {
		fmt.Fprintf(tw, "%s\t", n)
	}
	fmt.Fprintf(tw, "policy\t%s\tΔ %s\t", metricLabel(sr.Effect), metricLabel(sr.Effect))
	for _, c := range sweepColumns {
		fmt.Fprintf(tw, "%s\t", metricLabel(c))
	}
	fmt.Fprintln(tw)
	for _, pt := range sr.Points {
		for _, v := range pt.Values {
			fmt.Fprintf(tw, "%s\t", v)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t", pt.Policy, fmtStat(pt.Metrics[sr.Effect]), fmtDiff(pt.VsFirst[sr.Effect], sr.Runs))
		for _, c := range sweepColumns {
			fmt.Fprintf(tw, "%s\t", fmtStat(pt.Metrics[c]))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// fmtDiff renders a difference from the first point: "—" for the first
// point itself, the signed difference with one run, with its interval and
// a "*" when it differs after Holm's correction with several.
func fmtDiff(d *compare.Diff, runs int) string {
	switch {
	case d == nil:
		return "—"
	case d.Untested == "lower bounds":
		return "untested (≥)"
	case runs < 2:
		return fmt.Sprintf("%+.1f", float64(d.Mean))
	}
	out := fmt.Sprintf("%+.1f [%+.1f, %+.1f]", float64(d.Mean), float64(d.Lo), float64(d.Hi))
	if d.Differs {
		out += " *"
	}
	return out
}

// fmtValue renders a single value: integers plainly, others with a
// precision fitting them.
func fmtValue(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e12 {
		return fmt.Sprintf("%.0f", x)
	}
	if a := math.Abs(x); a < 1 {
		return fmt.Sprintf("%.3f", x)
	}
	return fmt.Sprintf("%.1f", x)
}

// RenderSweepSVG draws the trade-off plot: one point per grid point and
// policy at (x, y) metric means, with 95% interval bars when there are
// several runs, labelled with the point's setting, one colour per policy.
func RenderSweepSVG(title string, sr *SweepReport, x, y string) string {
	var policies []string
	xmax, ymax := 0.0, 0.0
	for _, pt := range sr.Points {
		if !slices.Contains(policies, pt.Policy) {
			policies = append(policies, pt.Policy)
		}
		xs, ys := pt.Metrics[x], pt.Metrics[y]
		xmax = math.Max(xmax, xs.top())
		ymax = math.Max(ymax, ys.top())
	}
	a := sweepAxes{xmax: niceCeil(xmax), ymax: niceCeil(ymax)}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="12">`+"\n", sweepWidth, sweepHeight, sweepWidth, sweepHeight)
	b.WriteString(`<rect width="100%" height="100%" fill="white"/>` + "\n")
	fmt.Fprintf(&b, `<text x="%.0f" y="24" font-size="14">%s</text>`+"\n", sweepLeft, xmlEscape(title))
	a.drawFrame(&b, x, y)
	order, labels := mergePoints(sr.Points, x, y)
	for _, i := range order {
		pt := sr.Points[i]
		a.drawPoint(&b, pt.Metrics[x], pt.Metrics[y], palette[slices.Index(policies, pt.Policy)%len(palette)], labels[i])
	}
	lx := sweepLeft
	for i, p := range policies {
		fmt.Fprintf(&b, `<circle cx="%.0f" cy="%.0f" r="5" fill="%s"/>`, lx+5, sweepHeight-30, palette[i%len(palette)])
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f">%s</text>`+"\n", lx+14, sweepHeight-26, xmlEscape(p))
		lx += 30 + 8*float64(len(p))
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// The sweep plot's layout, in pixels.
const (
	sweepWidth, sweepHeight, sweepLeft, sweepRight, sweepTop, sweepBottom = 900.0, 620.0, 80.0, 30.0, 50.0, 90.0
	sweepW, sweepH                                                        = sweepWidth - sweepLeft - sweepRight, sweepHeight - sweepTop - sweepBottom
)

// sweepAxes are the sweep plot's scales: the axes' maxima.
type sweepAxes struct{ xmax, ymax float64 }

func (a sweepAxes) px(v float64) float64 { return sweepLeft + sweepW*v/a.xmax }
func (a sweepAxes) py(v float64) float64 { return sweepTop + sweepH - sweepH*v/a.ymax }

// drawFrame draws the frame, the grid, the ticks and the axes' labels
// (metrics x and y).
func (a sweepAxes) drawFrame(b *strings.Builder, x, y string) {
	left, top := sweepLeft, sweepTop
	fmt.Fprintf(b, `<rect x="%.0f" y="%.0f" width="%.0f" height="%.0f" fill="none" stroke="#999"/>`+"\n", left, top, sweepW, sweepH)
	for k := 0; k <= 5; k++ {
		vx, vy := a.xmax*float64(k)/5, a.ymax*float64(k)/5
		fmt.Fprintf(b, `<text x="%.1f" y="%.0f" text-anchor="middle">%s</text>`+"\n", a.px(vx), top+sweepH+18, fmtValue(vx))
		fmt.Fprintf(b, `<text x="%.0f" y="%.1f" text-anchor="end">%s</text>`+"\n", left-6, a.py(vy)+4, fmtValue(vy))
		fmt.Fprintf(b, `<line x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke="#eee"/>`+"\n", left, a.py(vy), left+sweepW, a.py(vy))
	}
	fmt.Fprintf(b, `<text x="%.0f" y="%.0f" text-anchor="middle">%s</text>`+"\n", left+sweepW/2, top+sweepH+40, xmlEscape(metricLabel(x)+" →"))
	fmt.Fprintf(b, `<text x="20" y="%.0f" transform="rotate(-90 20 %.0f)" text-anchor="middle">%s</text>`+"\n", top+sweepH/2, top+sweepH/2, xmlEscape(metricLabel(y)+" →"))
}

// mergePoints lists the points to draw, in order, and the settings each
// stands for: points of one policy at the same place (a setting that does
// not concern the policy) are drawn once, their settings listed together.
func mergePoints(points []SweepPoint, x, y string) (order []int, labels map[int][]string) {
	type drawn struct {
		policy string
		x, y   [3]float64
	}
	var seen []drawn
	labels = map[int][]string{}
	for i, pt := range points {
		xs, ys := pt.Metrics[x], pt.Metrics[y]
		d := drawn{pt.Policy, [3]float64{float64(xs.Mean), xs.bottom(), xs.top()}, [3]float64{float64(ys.Mean), ys.bottom(), ys.top()}}
		if k := slices.Index(seen, d); k >= 0 {
			labels[order[k]] = append(labels[order[k]], pt.Setting)
			continue
		}
		seen = append(seen, d)
		order = append(order, i)
		labels[i] = []string{pt.Setting}
	}
	return order, labels
}

// drawPoint draws one point (with its intervals, if any) in colour c,
// labelled with the settings it stands for.
func (a sweepAxes) drawPoint(b *strings.Builder, xs, ys Stat, c string, settings []string) {
	cx, cy := a.px(float64(xs.Mean)), a.py(float64(ys.Mean))
	if xs.hasInterval() || ys.hasInterval() {
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>`, a.px(xs.bottom()), cy, a.px(xs.top()), cy, c)
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>`+"\n", cx, a.py(ys.bottom()), cx, a.py(ys.top()), c)
	}
	fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="4" fill="%s"/>`, cx, cy, c)
	label := strings.Join(settings, ", ")
	if n := len(settings); n > 2 {
		label = fmt.Sprintf("%s … %s (%d settings, same result)", settings[0], settings[n-1], n)
	}
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" fill="%s">%s</text>`+"\n", cx+6, cy-6, c, xmlEscape(label))
}

// top and bottom are the ends of s's interval, or its mean without one.
func (s Stat) top() float64 {
	if s.hasInterval() {
		return float64(s.Hi)
	}
	return float64(s.Mean)
}

func (s Stat) bottom() float64 {
	if s.hasInterval() {
		return float64(s.Lo)
	}
	return float64(s.Mean)
}
