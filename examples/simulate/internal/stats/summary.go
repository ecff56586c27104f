package stats

import "math"

// Interval is an estimate with a symmetric or asymmetric interval around
// it. Lo and Hi are NaN when there are too few observations for one.
type Interval struct {
	Est float64 `json:"estimate"`
	Lo  float64 `json:"lo"`
	Hi  float64 `json:"hi"`
	N   int     `json:"n"`
}

// Summarize returns the mean of vs with a two-sided 95% Student-t interval,
// and whether any value is a lower bound. When one is, the interval is not
// a confidence interval for the true mean (it is computed from lower
// bounds) and callers must print the mark beside it. Cost O(n).
func Summarize(vs []Value) (Interval, bool) {
	xs := make([]float64, len(vs))
	cens := false
	for i, v := range vs {
		xs[i] = v.V
		cens = cens || v.Censored
	}
	return tInterval(xs), cens
}

// meanOnly is the mean of xs (NaN when xs is empty) without an interval:
// Lo and Hi are NaN. The intervals start from it.
func meanOnly(xs []float64) Interval {
	out := Interval{Est: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), N: len(xs)}
	if len(xs) == 0 {
		return out
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	out.Est = sum / float64(len(xs))
	return out
}

// tInterval is the mean of xs with its 95% Student-t interval.
func tInterval(xs []float64) Interval {
	n := len(xs)
	out := meanOnly(xs)
	if n < 2 {
		return out
	}
	mean := out.Est
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	half := TQuantile(0.975, n-1) * math.Sqrt(ss/float64(n-1)/float64(n))
	out.Lo, out.Hi = mean-half, mean+half
	return out
}
