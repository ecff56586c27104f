package stats

import (
	"cmp"
	"math"
	"slices"
)

// Wait is one observed wait: how long a job waited, and whether the wait
// ended (the job started) or was cut off by the end of the simulation
// (Ended false: right-censored, the true wait is at least Len).
type Wait struct {
	Len   float64
	Ended bool
}

// KaplanMeierQuantile returns the p-quantile (0 < p <= 1) of the wait
// distribution estimated by Kaplan and Meier's product-limit estimator,
// which uses censored waits for what they say (the wait lasted at least
// this long) instead of dropping them or counting them as ended.
//
// The survival estimate after the distinct ended-wait lengths t_1 < t_2 <
// ... is S(t) = Π (1 − d_i/n_i) over t_i <= t, where d_i waits ended at
// t_i and n_i waits were still running just before it (a censored wait of
// length t_i counts as still running at t_i). The quantile is the smallest
// t_i with 1 − S(t_i) >= p. When the estimate never reaches p (too many
// waits censored), the result is the longest observed length marked as a
// lower bound. Without censoring it equals [Percentile]. NaN for no
// waits. Cost O(n log n); ws is not modified.
func KaplanMeierQuantile(ws []Wait, p float64) Value {
	if len(ws) == 0 || !(p > 0 && p <= 1) {
		return Value{V: math.NaN()}
	}
	s := append([]Wait(nil), ws...)
	slices.SortFunc(s, func(a, b Wait) int {
		if c := cmp.Compare(a.Len, b.Len); c != 0 {
			return c
		}
		switch {
		case a.Ended == b.Ended:
			return 0
		case a.Ended:
			return -1 // ended first: at equal lengths they leave the risk set first
		}
		return 1
	})
	surv, atRisk := 1.0, len(s)
	for i := 0; i < len(s); {
		j, ended := i, 0
		for j < len(s) && s[j].Len == s[i].Len {
			if s[j].Ended {
				ended++
			}
			j++
		}
		if ended > 0 {
			surv *= 1 - float64(ended)/float64(atRisk)
			if 1-surv >= p-1e-9 {
				return Exact(s[i].Len)
			}
		}
		atRisk -= j - i
		i = j
	}
	return AtLeast(s[len(s)-1].Len)
}
