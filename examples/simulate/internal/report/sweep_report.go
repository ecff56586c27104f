package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
)

// SweepAxis is one swept setting and its values.
type SweepAxis struct {
	Name   string   `json:"name"`
	Values []string `json:"values"`
}

// SweepPoint is one point of the grid with one policy: the swept values
// and every headline metric (a mean and interval over the runs).
type SweepPoint struct {
	Setting string          `json:"setting"`
	Values  []string        `json:"values"`
	Policy  string          `json:"policy"`
	Metrics map[string]Stat `json:"metrics"`
}

// SweepReport is the -sweep result.
type SweepReport struct {
	Axes   []SweepAxis  `json:"axes"`
	Runs   int          `json:"runs"`
	Points []SweepPoint `json:"points"`
}

// AggregateSweep summarises results[case][seed][policy]; labels[case] and
// values[case] name each point of the grid.
func AggregateSweep(axes []SweepAxis, labels []string, values [][]string, policies []string, results [][][]Result) *SweepReport {
	sr := &SweepReport{Axes: axes, Runs: len(results[0])}
	for c := range labels {
		for p, pol := range policies {
			pt := SweepPoint{Setting: labels[c], Values: values[c], Policy: pol, Metrics: map[string]Stat{}}
			for m, name := range MetricNames {
				var xs []float64
				for s := range results[c] {
					xs = append(xs, headline(results[c][s][p])[m].value)
				}
				pt.Metrics[name] = summarise(xs)
			}
			sr.Points = append(sr.Points, pt)
		}
	}
	return sr
}

// sweepColumns are the metrics of the sweep table.
var sweepColumns = []string{"goodput_gpu_hours", "lost_gpu_hours", "evictions", "thrash", "unfinished", "wait_p95_ls_h", "wait_p95_burstable_h", "wait_p95_be_h", "jain_across"}

func metricLabel(name string) string {
	for _, m := range headline(Result{}) {
		if m.name == name {
			return m.label
		}
	}
	return name
}

// writeSweep prints the sweep table: one row per point and policy.
func writeSweep(w io.Writer, sr *SweepReport) error {
	var names []string
	for _, a := range sr.Axes {
		names = append(names, a.Name)
	}
	fmt.Fprintf(w, "sweep over %s", strings.Join(names, " × "))
	if sr.Runs > 1 {
		fmt.Fprintf(w, " (%d runs per point: mean ±95%% interval)", sr.Runs)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, n := range names {
		fmt.Fprintf(tw, "%s\t", n)
	}
	fmt.Fprint(tw, "policy\t")
	for _, c := range sweepColumns {
		fmt.Fprintf(tw, "%s\t", metricLabel(c))
	}
	fmt.Fprintln(tw)
	for _, pt := range sr.Points {
		for _, v := range pt.Values {
			fmt.Fprintf(tw, "%s\t", v)
		}
		fmt.Fprintf(tw, "%s\t", pt.Policy)
		for _, c := range sweepColumns {
			st := pt.Metrics[c]
			if sr.Runs > 1 {
				fmt.Fprintf(tw, "%s\t", fmtStat(st))
			} else {
				fmt.Fprintf(tw, "%s\t", fmtValue(st.Mean))
			}
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
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
	const width, height, left, right, top, bottom = 900.0, 620.0, 80.0, 30.0, 50.0, 90.0
	plotW, plotH := width-left-right, height-top-bottom
	var policies []string
	xmax, ymax := 0.0, 0.0
	for _, pt := range sr.Points {
		if !slices.Contains(policies, pt.Policy) {
			policies = append(policies, pt.Policy)
		}
		xs, ys := pt.Metrics[x], pt.Metrics[y]
		xmax = math.Max(xmax, xs.Mean+xs.CI95)
		ymax = math.Max(ymax, ys.Mean+ys.CI95)
	}
	xmax, ymax = niceCeil(xmax), niceCeil(ymax)
	px := func(v float64) float64 { return left + plotW*v/xmax }
	py := func(v float64) float64 { return top + plotH - plotH*v/ymax }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	b.WriteString(`<rect width="100%" height="100%" fill="white"/>` + "\n")
	fmt.Fprintf(&b, `<text x="%.0f" y="24" font-size="14">%s</text>`+"\n", left, xmlEscape(title))
	fmt.Fprintf(&b, `<rect x="%.0f" y="%.0f" width="%.0f" height="%.0f" fill="none" stroke="#999"/>`+"\n", left, top, plotW, plotH)
	for k := 0; k <= 5; k++ {
		vx, vy := xmax*float64(k)/5, ymax*float64(k)/5
		fmt.Fprintf(&b, `<text x="%.1f" y="%.0f" text-anchor="middle">%s</text>`+"\n", px(vx), top+plotH+18, fmtValue(vx))
		fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" text-anchor="end">%s</text>`+"\n", left-6, py(vy)+4, fmtValue(vy))
		fmt.Fprintf(&b, `<line x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke="#eee"/>`+"\n", left, py(vy), left+plotW, py(vy))
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" text-anchor="middle">%s</text>`+"\n", left+plotW/2, top+plotH+40, xmlEscape(metricLabel(x)+" →"))
	fmt.Fprintf(&b, `<text x="20" y="%.0f" transform="rotate(-90 20 %.0f)" text-anchor="middle">%s</text>`+"\n", top+plotH/2, top+plotH/2, xmlEscape(metricLabel(y)+" →"))
	// Points of one policy at the same place (a setting that does not
	// concern the policy) are drawn once, their settings listed together.
	type drawn struct {
		policy string
		x, y   Stat
	}
	var seen []drawn
	labels := map[int][]string{}
	var order []int
	for i, pt := range sr.Points {
		d := drawn{pt.Policy, pt.Metrics[x], pt.Metrics[y]}
		if k := slices.Index(seen, d); k >= 0 {
			labels[order[k]] = append(labels[order[k]], pt.Setting)
			continue
		}
		seen = append(seen, d)
		order = append(order, i)
		labels[i] = []string{pt.Setting}
	}
	for _, i := range order {
		pt := sr.Points[i]
		c := palette[slices.Index(policies, pt.Policy)%len(palette)]
		xs, ys := pt.Metrics[x], pt.Metrics[y]
		cx, cy := px(xs.Mean), py(ys.Mean)
		if xs.CI95 > 0 || ys.CI95 > 0 {
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>`, px(xs.Mean-xs.CI95), cy, px(xs.Mean+xs.CI95), cy, c)
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>`+"\n", cx, py(ys.Mean-ys.CI95), cx, py(ys.Mean+ys.CI95), c)
		}
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="4" fill="%s"/>`, cx, cy, c)
		label := strings.Join(labels[i], ", ")
		if n := len(labels[i]); n > 2 {
			label = fmt.Sprintf("%s … %s (%d settings, same result)", labels[i][0], labels[i][n-1], n)
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" fill="%s">%s</text>`+"\n", cx+6, cy-6, c, xmlEscape(label))
	}
	lx := left
	for i, p := range policies {
		fmt.Fprintf(&b, `<circle cx="%.0f" cy="%.0f" r="5" fill="%s"/>`, lx+5, height-30, palette[i%len(palette)])
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f">%s</text>`+"\n", lx+14, height-26, xmlEscape(p))
		lx += 30 + 8*float64(len(p))
	}
	b.WriteString("</svg>\n")
	return b.String()
}
