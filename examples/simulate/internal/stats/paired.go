package stats

import (
	"errors"
	"math"
)

// PairedResult is the comparison of two settings run on the same seeds.
type PairedResult struct {
	// Diff is the mean per-seed difference a−b with its two-sided 95%
	// Student-t interval.
	Diff Interval `json:"diff"`
	// P is the two-sided p-value of the paired t-test of "no difference".
	// With no spread among the differences it is 0 when their mean is not
	// zero and 1 when it is.
	P float64 `json:"p"`
}

// ErrUnpaired reports paired samples of different lengths.
var ErrUnpaired = errors.New("stats: paired samples have different lengths")

// Paired compares a and b observed on the same seeds (a[i] and b[i] share
// seed i): the mean of the differences a[i]−b[i], its 95% interval and the
// paired t-test p-value. Pairing removes the variation the seeds share,
// so it detects effects an unpaired comparison of two intervals misses.
// It needs at least two pairs for an interval and a p-value (NaN
// otherwise). Cost O(n).
func Paired(a, b []float64) (PairedResult, error) {
	if len(a) != len(b) {
		return PairedResult{}, ErrUnpaired
	}
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	iv := tInterval(d)
	out := PairedResult{Diff: iv, P: math.NaN()}
	if len(d) < 2 {
		return out, nil
	}
	half := iv.Hi - iv.Est
	if half == 0 {
		out.P = 1
		if iv.Est != 0 {
			out.P = 0
		}
		return out, nil
	}
	se := half / TQuantile(0.975, len(d)-1)
	t := iv.Est / se
	out.P = 2 * TCDF(-math.Abs(t), len(d)-1)
	return out, nil
}
