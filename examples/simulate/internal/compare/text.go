package compare

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/stats"
)

// WriteText prints r as three tables: per metric and arm the mean and its
// interval ("≥" when they are lower bounds, "*" when the arm differs from
// the first after Holm's correction), then per metric and arm after the
// first the paired difference with its Holm-adjusted p-value (for lower
// bounds the sign test's counts instead), then the replicate support
// (writeSupport). what names
// the arms' kind in the header ("policy", "sweep point").
func WriteText(w io.Writer, r *Report, what string) error {
	if len(r.Metrics) == 0 || len(r.Metrics[0].Arms) == 0 {
		return nil
	}
	first := r.Metrics[0].Arms[0].Arm
	fmt.Fprintf(w, "%d runs (seeds %s): %s.\n", len(r.Seeds), seedRange(r.Seeds), r.Method)
	fmt.Fprintf(w, "*: differs from %s after Holm's correction over the %d differences tested (family-wise error <= %g); ≥: a lower bound (some runs end with jobs still waiting; such differences get a sign test over the seeds whose order is settled)\n",
		first, r.Family, r.Alpha)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "metric\t")
	for _, a := range r.Metrics[0].Arms {
		fmt.Fprintf(tw, "%s\t", a.Arm)
	}
	fmt.Fprintln(tw)
	for _, m := range r.Metrics {
		fmt.Fprintf(tw, "%s\t", m.Label)
		for _, a := range m.Arms {
			mark := ""
			if a.Diff != nil && a.Diff.Differs {
				mark = " *"
			}
			fmt.Fprintf(tw, "%s%s\t", fmtInterval(a.Mean, a.Lo, a.Hi, a.LowerBound), mark)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.Metrics[0].Arms) < 2 {
		return nil
	}
	if err := writeDiffs(w, r, what, first); err != nil {
		return err
	}
	return writeSupport(w, r, first)
}

// writeDiffs prints the table of paired differences.
func writeDiffs(w io.Writer, r *Report, what, first string) error {
	fmt.Fprintf(w, "difference from %s, paired by seed: mean [95%% interval] (Holm-adjusted p), per %s\n", first, what)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "metric\t")
	for _, a := range r.Metrics[0].Arms[1:] {
		fmt.Fprintf(tw, "%s\t", a.Arm)
	}
	fmt.Fprintln(tw)
	for _, m := range r.Metrics {
		fmt.Fprintf(tw, "%s\t", m.Label)
		for _, a := range m.Arms[1:] {
			d := a.Diff
			if d.Untested != "" {
				fmt.Fprintf(tw, "untested (%s)\t", d.Untested)
				continue
			}
			if d.Test == "sign" {
				fmt.Fprintf(tw, "sign test %s (p %s)\t", fmtSupport(d.Support), fmtP(float64(d.PHolm)))
				continue
			}
			fmt.Fprintf(tw, "%s (p %s)\t", fmtInterval(d.Mean, d.Lo, d.Hi, false), fmtP(float64(d.PHolm)))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// fmtInterval renders "mean [lo, hi]" with a precision fitting the mean,
// prefixed with "≥" for a lower bound; without an interval just the mean.
func fmtInterval(mean, lo, hi stats.Float, lower bool) string {
	m := float64(mean)
	prec := 1
	if a := math.Abs(m); a > 0 && a < 1 {
		prec = 3
	}
	s := fmt.Sprintf("%.*f", prec, m)
	if !math.IsNaN(float64(lo)) {
		s += fmt.Sprintf(" [%.*f, %.*f]", prec, float64(lo), prec, float64(hi))
	}
	if lower {
		s = "≥" + s
	}
	return s
}

// fmtP renders a p-value with two significant figures, "<0.001" below.
func fmtP(p float64) string {
	if p < 0.001 {
		return "<0.001"
	}
	return fmt.Sprintf("%.2g", p)
}

// seedRange renders seeds as "a..b" when consecutive, else as a list.
func seedRange(seeds []int64) string {
	if len(seeds) == 0 {
		return "none"
	}
	consecutive := true
	for i := 1; i < len(seeds); i++ {
		consecutive = consecutive && seeds[i] == seeds[i-1]+1
	}
	if consecutive {
		return fmt.Sprintf("%d..%d", seeds[0], seeds[len(seeds)-1])
	}
	return fmt.Sprint(seeds)
}
