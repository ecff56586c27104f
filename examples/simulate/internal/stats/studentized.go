package stats

import (
	"math"
	"math/rand/v2"
	"sort"
)

// Studentized returns the mean of xs with a bootstrap-t (studentized
// bootstrap) interval at the given level, never narrower than Student's t
// on either side. Each of reps resamples of xs, drawn with replacement
// from a PCG generator seeded with seed, gives t* = (mean* − mean)/se*;
// the limits are mean − q(1−α/2)·se and mean − q(α/2)·se for the
// quantiles q of t*, so a right-skewed sample gets the long upper limit it
// needs. The same input and seed give the same interval. Lo and Hi are
// NaN for fewer than two values, reps < 1 or a level outside (0, 1); with
// no spread both equal the mean. Cost O(reps·n + reps·log reps).
func Studentized(xs []float64, reps int, level float64, seed uint64) Interval {
	n := len(xs)
	out := meanOnly(xs)
	if n < 2 || reps < 1 || !(level > 0 && level < 1) {
		return out
	}
	mean, se := out.Est, stdErr(xs, out.Est)
	tail := (1 - level) / 2
	half := TQuantile(1-tail, n-1) * se
	out.Lo, out.Hi = mean-half, mean+half
	if se == 0 {
		return out
	}
	ts := studentizedResamples(xs, mean, reps, seed)
	if len(ts) == 0 {
		return out
	}
	q := func(p float64) float64 {
		return ts[max(0, min(len(ts)-1, int(math.Floor(p*float64(len(ts))))))]
	}
	out.Lo = min(out.Lo, mean-q(1-tail)*se)
	out.Hi = max(out.Hi, mean-q(tail)*se)
	return out
}

// studentizedResamples draws reps resamples of xs and returns their
// studentized means (mean* − mean)/se*, sorted; a resample with no spread
// (se* = 0) has no such value and is left out.
func studentizedResamples(xs []float64, mean float64, reps int, seed uint64) []float64 {
	n := len(xs)
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	buf := make([]float64, n)
	ts := make([]float64, 0, reps)
	for range reps {
		var s float64
		for i := range buf {
			buf[i] = xs[r.IntN(n)]
			s += buf[i]
		}
		m := s / float64(n)
		if se := stdErr(buf, m); se > 0 {
			ts = append(ts, (m-mean)/se)
		}
	}
	sort.Float64s(ts)
	return ts
}

// stdErr is the standard error s/√n of the mean of xs, whose mean is
// given.
func stdErr(xs []float64, mean float64) float64 {
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	n := float64(len(xs))
	return math.Sqrt(ss / (n - 1) / n)
}
