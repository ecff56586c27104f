package compare

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/stats"
)

// Support counts the seeds on which an arm's value is certainly below,
// above or equal to the first arm's, and those a lower bound leaves
// unsettled: a lower bound above an exact value is above it; a lower bound
// at or below an exact value, or two lower bounds, settle nothing.
type Support struct {
	Below   int `json:"below"`
	Above   int `json:"above"`
	Equal   int `json:"equal"`
	Unknown int `json:"unknown"`
}

// supportOf compares a with b seed by seed.
func supportOf(a, b []stats.Value) Support {
	var s Support
	for i := range a {
		x, y := a[i], b[i]
		switch {
		case !x.Censored && !y.Censored && x.V < y.V, !x.Censored && y.Censored && y.V > x.V:
			s.Below++
		case !x.Censored && !y.Censored && x.V > y.V, x.Censored && !y.Censored && x.V > y.V:
			s.Above++
		case !x.Censored && !y.Censored:
			s.Equal++
		default:
			s.Unknown++
		}
	}
	return s
}

// signP is the two-sided p-value of a sign test that counts every
// unsettled seed against the direction tested (conservative: a lower
// bound may hide either order): twice the smaller of P(X >= Below) and
// P(X >= Above) for X ~ Binomial(Below+Above+Unknown, 1/2), at most 1.
// Equal seeds carry no sign and are left out.
func signP(s Support) float64 {
	n := s.Below + s.Above + s.Unknown
	return min(1, 2*min(binomTail(n, s.Below), binomTail(n, s.Above)))
}

// binomTail is P(X >= k) for X ~ Binomial(n, 1/2). O(n).
func binomTail(n, k int) float64 {
	if k <= 0 {
		return 1
	}
	lg := func(x int) float64 { v, _ := math.Lgamma(float64(x) + 1); return v }
	p := 0.0
	for i := k; i <= n; i++ {
		p += math.Exp(lg(n) - lg(i) - lg(n-i) - float64(n)*math.Ln2)
	}
	return p
}

// fmtSupport renders an arm's support: "17< 3>", then the equal and
// unsettled seeds when there are any.
func fmtSupport(s Support) string {
	out := fmt.Sprintf("%d< %d>", s.Below, s.Above)
	if s.Equal > 0 {
		out += fmt.Sprintf(" %d=", s.Equal)
	}
	if s.Unknown > 0 {
		out += fmt.Sprintf(" %d?", s.Unknown)
	}
	return out
}

// writeSupport prints the replicate support table: per metric and arm
// after the first the seeds on which it is below (<), above (>) or equal
// to (=) the first, or unsettled (?), and per arm the seeds on which its
// value is a lower bound (≥k).
func writeSupport(w io.Writer, r *Report, first string) error {
	fmt.Fprintf(w, "replicate support: seeds on which the value is below (<), above (>) or equal to (=) %s's, or unsettled by a lower bound (?); ≥k: seeds on which it is a lower bound\n", first)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "metric\t")
	for _, a := range r.Metrics[0].Arms {
		fmt.Fprintf(tw, "%s\t", a.Arm)
	}
	fmt.Fprintln(tw)
	for _, m := range r.Metrics {
		fmt.Fprintf(tw, "%s\t", m.Label)
		for _, a := range m.Arms {
			var cell []string
			if a.Diff != nil {
				cell = append(cell, fmtSupport(a.Diff.Support))
			}
			if a.Censored > 0 {
				cell = append(cell, fmt.Sprintf("≥%d", a.Censored))
			}
			if len(cell) == 0 {
				cell = append(cell, "-")
			}
			fmt.Fprintf(tw, "%s\t", strings.Join(cell, " "))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}
