package stats

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/longtest"
)

// coverageBatches is the number of batches per distribution: at a true
// coverage of 95% one distribution's measured coverage has a binomial
// standard error of √(0.95·0.05/1000) ≈ 0.7 points.
const coverageBatches = 1000

// population is a distribution to draw replicates from, with its true mean.
type population struct {
	name string
	draw func(r *rand.Rand) float64
	mean float64
}

// recordedCounts reads testdata/counts200.csv: each line one count metric
// of one policy over the simulator's 200 replicates, drawn from as an
// empirical distribution whose mean is the 200-replicate mean.
func recordedCounts(t *testing.T) []population {
	f, err := os.Open("testdata/counts200.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []population
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		fields := strings.Split(sc.Text(), ",")
		vs := make([]float64, len(fields)-2)
		for i, s := range fields[2:] {
			if vs[i], err = strconv.ParseFloat(s, 64); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, population{fields[0] + "/" + fields[1],
			func(r *rand.Rand) float64 { return vs[r.IntN(len(vs))] }, meanOnly(vs).Est})
	}
	if err := sc.Err(); err != nil || len(out) == 0 {
		t.Fatalf("testdata/counts200.csv: %v, %d lines", err, len(out))
	}
	return out
}

// lognormalCounts is a count whose mean is 100·e^(σ²/2) and whose
// coefficient of variation is cv (σ² = ln(1+cv²)), the dispersion of the
// simulator's eviction and thrash counts (cv 0.4 to 1.3 over 200
// replicates), floored to a whole number.
func lognormalCounts(cv float64) population {
	sigma := math.Sqrt(math.Log1p(cv * cv))
	// E⌊X⌋ is E X − 1/2 to well within 0.1% for a mean of 100·e^(σ²/2).
	mean := 100*math.Exp(sigma*sigma/2) - 0.5
	return population{fmt.Sprintf("lognormal cv %.1f", cv),
		func(r *rand.Rand) float64 { return math.Floor(100 * math.Exp(sigma*r.NormFloat64())) }, mean}
}

// coverage is the share of batches of n draws from p whose interval covers
// p's mean.
func coverage(p population, n int, interval func(xs []float64, seed uint64) Interval) float64 {
	r := rand.New(rand.NewPCG(uint64(n), 29))
	xs := make([]float64, n)
	hits := 0
	for b := range coverageBatches {
		for i := range xs {
			xs[i] = p.draw(r)
		}
		if iv := interval(xs, uint64(b)); iv.Lo <= p.mean && p.mean <= iv.Hi {
			hits++
		}
	}
	return float64(hits) / coverageBatches
}

var (
	newInterval = func(xs []float64, seed uint64) Interval { return Studentized(xs, 2000, 0.95, seed) }
	oldInterval = func(xs []float64, seed uint64) Interval { return Bootstrap(xs, 2000, 0.95, seed) }
)

// bimodal names the recorded counts whose mean rests on a tenth of the
// replicates (unfinished jobs under requeue and time-based: 18 to 21 of
// 200 replicates above 10× the median hold 70–79% of the total), which a
// sample of 10 misses entirely with probability 0.33 to 0.39: no interval
// computed from such a sample can cover their mean 95% of the time, and
// the check only asks the new interval to do much better than the old.
var bimodal = map[string]bool{"unfinished/requeue": true, "unfinished/timebased": true}

// TestCountIntervalCoverage draws 1,000 batches of n replicates from
// distributions shaped like the simulator's counts and checks that the
// nominal 95% interval of [Studentized] covers the true mean: on average
// over the distributions at least 93% (the average's binomial noise is a
// fraction of a point, so this allows for the method's own shortfall at
// small n, not for chance) and on each at least 91% (about 6 standard
// errors of one distribution's 0.7 points: the shortfall of small,
// discrete counts such as 5 unfinished jobs). The old percentile bootstrap
// must fail the average at n = 10, so the check can fail. Run it with
// TENURE_LONG_TESTS=1 go test -run Coverage -v ./examples/simulate/internal/stats
// to see every coverage.
func TestCountIntervalCoverage(t *testing.T) {
	longtest.Skip(t)
	pops := recordedCounts(t)
	for _, cv := range []float64{0.7, 1.0, 1.3} {
		pops = append(pops, lognormalCounts(cv))
	}
	for _, n := range []int{10} { // 10 runs, the README's; n = 20 covers more (0.967 against 0.922 on average)
		var sumNew, sumOld float64
		var k int
		for _, p := range pops {
			cn, co := coverage(p, n, newInterval), coverage(p, n, oldInterval)
			t.Logf("n=%d %-32s mean %8.1f: bootstrap-t %.3f, percentile %.3f", n, p.name, p.mean, cn, co)
			if bimodal[p.name] {
				if cn < co+0.05 {
					t.Errorf("n=%d %s: bootstrap-t covers %.3f, not 5 points more than the percentile bootstrap's %.3f", n, p.name, cn, co)
				}
				continue
			}
			if cn < 0.91 {
				t.Errorf("n=%d %s: bootstrap-t covers the mean %.3f of the time, want at least 0.91", n, p.name, cn)
			}
			sumNew, sumOld, k = sumNew+cn, sumOld+co, k+1
		}
		avgNew, avgOld := sumNew/float64(k), sumOld/float64(k)
		t.Logf("n=%d average over %d distributions: bootstrap-t %.3f, percentile %.3f", n, k, avgNew, avgOld)
		if avgNew < 0.93 {
			t.Errorf("n=%d: bootstrap-t covers %.3f on average, want at least 0.93", n, avgNew)
		}
		if n == 10 && avgOld >= 0.93 {
			t.Errorf("n=10: the percentile bootstrap covers %.3f on average: the check would not tell it apart", avgOld)
		}
	}
}
