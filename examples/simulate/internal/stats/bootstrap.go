package stats

import (
	"math"
	"math/rand/v2"
	"sort"
)

// Bootstrap returns the mean of xs with a percentile-bootstrap interval at
// the given level (for example 0.95): reps resamples of xs with
// replacement, drawn from a PCG generator seeded with seed, so the same
// input and seed give the same interval. Each limit is the mean of some
// resample, so the interval never leaves [min xs, max xs]: for counts it
// never goes negative, which a t-interval on skewed counts does. Lo and Hi
// are NaN for fewer than two values or reps < 1. Cost O(reps·n +
// reps·log reps).
func Bootstrap(xs []float64, reps int, level float64, seed uint64) Interval {
	n := len(xs)
	out := meanOnly(xs)
	if n < 2 || reps < 1 || !(level > 0 && level < 1) {
		return out
	}
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	means := make([]float64, reps)
	for b := range means {
		var s float64
		for range n {
			s += xs[r.IntN(n)]
		}
		means[b] = s / float64(n)
	}
	sort.Float64s(means)
	tail := (1 - level) / 2
	out.Lo = means[min(reps-1, int(math.Floor(tail*float64(reps))))]
	out.Hi = means[max(0, int(math.Ceil((1-tail)*float64(reps)))-1)]
	return out
}
