package stats

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestTQuantileKnownValues(t *testing.T) {
	// Two-sided 95% critical values from any t table.
	for _, tc := range []struct {
		df   int
		want float64
	}{{1, 12.706}, {2, 4.303}, {9, 2.262}, {30, 2.042}, {120, 1.980}, {100000, 1.960}} {
		if got := TQuantile(0.975, tc.df); !near(got, tc.want, 0.001) {
			t.Errorf("TQuantile(0.975, %d) = %.4f, want %.3f", tc.df, got, tc.want)
		}
	}
	if got := TCDF(0, 5); !near(got, 0.5, 1e-12) {
		t.Errorf("TCDF(0) = %v, want 0.5", got)
	}
	if !math.IsNaN(TQuantile(0.975, 0)) || !math.IsNaN(TCDF(1, 0)) {
		t.Error("df 0 must give NaN")
	}
}

func TestPairedHandComputed(t *testing.T) {
	a := []float64{10, 12, 14, 20}
	b := []float64{9, 10, 11, 16}
	// Differences 1,2,3,4: mean 2.5, sd sqrt(5/3), se sqrt(5/12), t = 3.873, df 3.
	r, err := Paired(a, b)
	if err != nil {
		t.Fatal(err)
	}
	half := 3.182446 * math.Sqrt(5.0/12)
	if !near(r.Diff.Est, 2.5, 1e-12) || !near(r.Diff.Hi-r.Diff.Est, half, 1e-4) || r.Diff.N != 4 {
		t.Errorf("Paired = %+v, want 2.5 ± %.4f", r.Diff, half)
	}
	if !near(r.P, 0.0305, 0.0005) {
		t.Errorf("Paired p = %v, want about 0.0305", r.P)
	}
	if _, err := Paired(a, b[:3]); err != ErrUnpaired {
		t.Errorf("Paired of unequal lengths: err %v, want ErrUnpaired", err)
	}
	same, _ := Paired([]float64{1, 2}, []float64{1, 2})
	shift, _ := Paired([]float64{2, 3}, []float64{1, 2})
	if same.P != 1 || shift.P != 0 {
		t.Errorf("no-spread p-values: %v, %v; want 1, 0", same.P, shift.P)
	}
}

// Pairing finds an effect that the unpaired intervals hide: the seeds vary
// a lot, the setting shifts each by exactly about one.
func TestPairedSeesThroughSeedVariance(t *testing.T) {
	a := []float64{100, 200, 300, 400, 500}
	b := []float64{99, 199.2, 298.8, 399.1, 498.9}
	r, _ := Paired(a, b)
	ia, _ := Summarize([]Value{Exact(100), Exact(200), Exact(300), Exact(400), Exact(500)})
	if r.Diff.Lo <= 0 || ia.Hi-ia.Est < 100 {
		t.Errorf("paired diff %+v should exclude 0 while the unpaired interval is wide (%+v)", r.Diff, ia)
	}
}

func TestHolmHandComputed(t *testing.T) {
	// m = 4: thresholds 0.05/4, 0.05/3, 0.05/2, 0.05/1.
	p := []float64{0.04, 0.01, 0.03, 0.005}
	adj, rej := Holm(p, 0.05)
	wantAdj := []float64{0.06, 0.03, 0.06, 0.02}
	wantRej := []bool{false, true, false, true}
	for i := range p {
		if !near(adj[i], wantAdj[i], 1e-12) || rej[i] != wantRej[i] {
			t.Errorf("Holm[%d] = %v %v, want %v %v", i, adj[i], rej[i], wantAdj[i], wantRej[i])
		}
	}
	// Unadjusted, three of the four would pass 0.05; a NaN is left alone.
	adj, rej = Holm([]float64{math.NaN(), 0.01}, 0.05)
	if !math.IsNaN(adj[0]) || rej[0] || adj[1] != 0.01 || !rej[1] {
		t.Errorf("Holm with NaN = %v %v", adj, rej)
	}
}

// Oracle: the step-down loop written out literally.
func TestHolmAgainstStepDown(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := rapid.IntRange(1, 12).Draw(t, "m")
		p := make([]float64, m)
		for i := range p {
			p[i] = float64(rapid.IntRange(0, 1000).Draw(t, "p")) / 1000
		}
		_, rej := Holm(p, 0.05)
		want := make([]bool, m)
		done := make([]bool, m)
		for k := 0; k < m; k++ {
			best := -1
			for i := range p {
				if !done[i] && (best < 0 || p[i] < p[best]) {
					best = i
				}
			}
			done[best] = true
			if p[best]*float64(m-k) > 0.05 {
				break
			}
			want[best] = true
		}
		for i := range p {
			// Ties may be ordered differently, but equal p-values share a fate.
			if rej[i] != want[i] {
				t.Fatalf("p=%v: Holm %v, step-down %v", p, rej, want)
			}
		}
	})
}

func TestBootstrapNeverLeavesTheData(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(2, 20).Draw(t, "n")
		xs := make([]float64, n)
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := range xs {
			xs[i] = float64(rapid.IntRange(0, 1000).Draw(t, "x"))
			lo, hi = min(lo, xs[i]), max(hi, xs[i])
		}
		seed := rapid.Uint64().Draw(t, "seed")
		iv := Bootstrap(xs, 200, 0.95, seed)
		if iv.Lo < lo || iv.Hi > hi || iv.Lo > iv.Hi || iv.Lo < 0 {
			t.Fatalf("Bootstrap %+v outside data range [%v, %v]", iv, lo, hi)
		}
		if again := Bootstrap(xs, 200, 0.95, seed); again != iv {
			t.Fatalf("Bootstrap not deterministic: %+v vs %+v", iv, again)
		}
	})
}

// A skewed count sample: the t-interval goes negative, the bootstrap does not.
func TestBootstrapSkewedCounts(t *testing.T) {
	xs := []float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 120}
	tiv, _ := Summarize([]Value{Exact(0), Exact(0), Exact(0), Exact(0), Exact(0), Exact(0), Exact(0), Exact(0), Exact(0), Exact(120)})
	b := Bootstrap(xs, 2000, 0.95, 1)
	if tiv.Lo >= 0 {
		t.Fatalf("setup: t-interval %+v should go negative", tiv)
	}
	if b.Lo != 0 || b.Hi <= 0 || b.Est != 12 {
		t.Errorf("Bootstrap = %+v, want lo 0, hi > 0, mean 12", b)
	}
	if c := Bootstrap([]float64{3, 3, 3}, 100, 0.95, 7); c.Lo != 3 || c.Hi != 3 {
		t.Errorf("constant data: %+v, want [3, 3]", c)
	}
	if one := Bootstrap([]float64{3}, 100, 0.95, 7); !math.IsNaN(one.Lo) {
		t.Errorf("one value: %+v, want NaN limits", one)
	}
}

func TestKaplanMeierHandComputed(t *testing.T) {
	// Waits 1, 2+, 3, 4+, 5 (+ = still waiting). S(1)=4/5, S(3)=4/5·2/3=8/15,
	// S(5)=0. F(1)=0.2, F(3)=7/15≈0.467, F(5)=1.
	ws := []Wait{{1, true}, {2, false}, {3, true}, {4, false}, {5, true}}
	for _, tc := range []struct {
		p    float64
		want Value
	}{{0.2, Exact(1)}, {0.21, Exact(3)}, {0.46, Exact(3)}, {0.5, Exact(5)}, {0.99, Exact(5)}} {
		if got := KaplanMeierQuantile(ws, tc.p); got != tc.want {
			t.Errorf("KM(p=%v) = %+v, want %+v", tc.p, got, tc.want)
		}
	}
	// The last wait censored: the curve stops at F = 7/15 and higher
	// quantiles are lower bounds at the longest observed wait.
	ws[4].Ended = false
	if got := KaplanMeierQuantile(ws, 0.5); got != AtLeast(5) {
		t.Errorf("KM censored tail = %+v, want ≥5", got)
	}
	if got := KaplanMeierQuantile(ws, 0.4); got != Exact(3) {
		t.Errorf("KM below the censored tail = %+v, want 3", got)
	}
	if got := KaplanMeierQuantile(nil, 0.5); !math.IsNaN(got.V) {
		t.Errorf("KM(nil) = %+v, want NaN", got)
	}
}

// Without censoring, Kaplan–Meier is the empirical distribution.
func TestKaplanMeierUncensoredIsPercentile(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 40).Draw(t, "n")
		ws := make([]Wait, n)
		vs := make([]Value, n)
		for i := range ws {
			x := float64(rapid.IntRange(0, 20).Draw(t, "x"))
			ws[i], vs[i] = Wait{x, true}, Exact(x)
		}
		p := float64(rapid.IntRange(1, 100).Draw(t, "p")) / 100
		if km, pc := KaplanMeierQuantile(ws, p), Percentile(vs, p); km != pc {
			t.Fatalf("KM %+v != percentile %+v at p=%v", km, pc, p)
		}
	})
}
