package stats

import (
	"math"
	"sort"
)

// Holm applies Holm's step-down procedure to the p-values of m comparisons
// at family-wise level alpha: the chance that any of the m is declared
// different when none is stays at or below alpha. It returns, per
// comparison and in the input order, the Holm-adjusted p-value and whether
// the comparison is rejected (adjusted p <= alpha). NaN p-values are never
// rejected, get adjusted p-value NaN, and do not count toward m.
//
// The procedure sorts the m p-values ascending, compares the k-th smallest
// with alpha/(m−k+1), and stops at the first that fails; the adjusted
// p-value of the k-th is the running maximum of min(1, (m−j+1)·p_(j)) over
// j <= k. Cost O(m log m).
func Holm(p []float64, alpha float64) (adjusted []float64, rejected []bool) {
	adjusted = make([]float64, len(p))
	rejected = make([]bool, len(p))
	idx := make([]int, 0, len(p))
	for i, v := range p {
		adjusted[i] = math.NaN()
		if !math.IsNaN(v) {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] < p[idx[b]] })
	m := len(idx)
	running := 0.0
	for k, i := range idx {
		running = max(running, min(1, float64(m-k)*p[i]))
		adjusted[i] = running
		rejected[i] = running <= alpha
	}
	return adjusted, rejected
}
