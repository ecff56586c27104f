package stats

import (
	"math"
	"slices"
	"strconv"
)

// Value is a figure that may be only a lower bound: when Censored is true
// the true figure is at least V (a wait still running when the simulation
// stopped, or an aggregate that includes one).
type Value struct {
	V        float64 `json:"value"`
	Censored bool    `json:"lower_bound,omitempty"`
}

// Exact returns an uncensored Value.
func Exact(v float64) Value { return Value{V: v} }

// AtLeast returns a Value that is a lower bound.
func AtLeast(v float64) Value { return Value{V: v, Censored: true} }

// Format formats v with strconv's 'f' format at prec decimals, prefixed
// with "≥" when v is a lower bound.
func (v Value) Format(prec int) string {
	s := strconv.FormatFloat(v.V, 'f', prec, 64)
	if v.Censored {
		return "≥" + s
	}
	return s
}

// Mean returns the arithmetic mean of vs, marked as a lower bound if any
// value is one (raising a censored value raises the mean). The mean of no
// values is NaN. Cost O(n).
func Mean(vs []Value) Value {
	if len(vs) == 0 {
		return Value{V: math.NaN()}
	}
	var sum float64
	cens := false
	for _, v := range vs {
		sum += v.V
		cens = cens || v.Censored
	}
	return Value{V: sum / float64(len(vs)), Censored: cens}
}

// Percentile returns the nearest-rank p-quantile (0 < p <= 1) of vs: the
// smallest observed value with at least a fraction p of the values at or
// below it. It is marked as a lower bound exactly when raising the
// censored values could raise it: when it would differ with every
// censored value raised to +Inf (the largest raise; the quantile is
// monotone in each value, so if that raise leaves it alone, every raise
// does). The percentile of no values is NaN. Cost O(n log n); vs is not
// modified.
func Percentile(vs []Value, p float64) Value {
	return Percentiles(vs, p)[0]
}

// Percentiles returns Percentile(vs, p) for each p, sorting vs's values
// once: O(n log n + len(ps)).
func Percentiles(vs []Value, ps ...float64) []Value {
	out := make([]Value, len(ps))
	var all, exact []float64
	for i, p := range ps {
		if len(vs) == 0 || !(p > 0 && p <= 1) {
			out[i] = Value{V: math.NaN()}
			continue
		}
		if all == nil {
			all, exact = sortedValues(vs)
		}
		k := nearestRank(len(vs), p)
		out[i] = Value{V: all[k-1]}
		// With the censored values at +Inf, the k-th smallest is
		// exact[k-1], or +Inf when there are fewer than k exact values.
		out[i].Censored = k > len(exact) || exact[k-1] != out[i].V
	}
	return out
}

// sortedValues returns vs's values sorted, and its exact (uncensored)
// values sorted.
func sortedValues(vs []Value) (all, exact []float64) {
	all = make([]float64, len(vs))
	exact = make([]float64, 0, len(vs))
	for i, v := range vs {
		all[i] = v.V
		if !v.Censored {
			exact = append(exact, v.V)
		}
	}
	slices.Sort(all)
	slices.Sort(exact)
	return all, exact
}

// nearestRank returns the 1-based rank of the nearest-rank p-quantile of n
// values: the smallest k with k/n >= p (to within rounding).
func nearestRank(n int, p float64) int {
	k := int(math.Ceil(p*float64(n) - 1e-9))
	return min(max(k, 1), n)
}
