package stats

import (
	"encoding/json"
	"math"
	"sort"
	"testing"

	"pgregory.net/rapid"
)

func TestValueFormat(t *testing.T) {
	if got := AtLeast(1.25).Format(1); got != "≥1.2" && got != "≥1.3" {
		t.Errorf("AtLeast(1.25).Format(1) = %q", got)
	}
	if got := Exact(2).Format(2); got != "2.00" {
		t.Errorf("Exact(2).Format(2) = %q, want 2.00", got)
	}
}

func TestMeanMarksAnyCensored(t *testing.T) {
	if got := Mean([]Value{Exact(1), Exact(3)}); got != Exact(2) {
		t.Errorf("Mean exact = %+v, want 2 exact", got)
	}
	if got := Mean([]Value{Exact(1), AtLeast(3)}); got != AtLeast(2) {
		t.Errorf("Mean with a censored value = %+v, want ≥2", got)
	}
	if got := Mean(nil); !math.IsNaN(got.V) {
		t.Errorf("Mean(nil) = %v, want NaN", got.V)
	}
}

// Percentiles answers an out-of-range p with NaN without spoiling the
// others, and no values with NaN for every p.
func TestPercentilesOutOfRange(t *testing.T) {
	vs := []Value{Exact(5), Exact(1), AtLeast(10), Exact(3), Exact(7)}
	got := Percentiles(vs, 0, 0.5, 1.5, math.NaN(), 1)
	if len(got) != 5 || !math.IsNaN(got[0].V) || got[1] != Exact(5) || !math.IsNaN(got[2].V) || !math.IsNaN(got[3].V) || got[4] != AtLeast(10) {
		t.Errorf("Percentiles(0, 0.5, 1.5, NaN, 1) = %+v, want NaN, 5, NaN, NaN, ≥10", got)
	}
	for _, v := range Percentiles(nil, 0.5, 1) {
		if !math.IsNaN(v.V) {
			t.Errorf("Percentiles of no values = %+v, want NaN", v)
		}
	}
	if got := Percentiles(vs); len(got) != 0 {
		t.Errorf("Percentiles with no p = %+v, want none", got)
	}
}

func TestPercentileHandComputed(t *testing.T) {
	vs := []Value{Exact(5), Exact(1), AtLeast(10), Exact(3), Exact(7)}
	for _, tc := range []struct {
		p    float64
		want Value
	}{
		{0.2, Exact(1)}, {0.5, Exact(5)}, {0.8, Exact(7)}, {0.81, AtLeast(10)}, {1, AtLeast(10)},
	} {
		if got := Percentile(vs, tc.p); got != tc.want {
			t.Errorf("Percentile(p=%v) = %+v, want %+v", tc.p, got, tc.want)
		}
	}
	// A censored value below the chosen rank marks it: that job may really
	// have waited longer than every other, moving 3 into the middle.
	low := []Value{AtLeast(1), Exact(2), Exact(3)}
	if got := Percentile(low, 0.5); got != AtLeast(2) {
		t.Errorf("Percentile with a low censored value = %+v, want ≥2", got)
	}
	// ... unless what would move in is equal: 0, 0 censored, then 1s.
	ties := []Value{Exact(0), AtLeast(0), Exact(1), Exact(1), Exact(1)}
	if got := Percentile(ties, 0.6); got != Exact(1) {
		t.Errorf("Percentile where raising changes nothing = %+v, want exact 1", got)
	}
	// Ties: an exact value equal to a censored one ranks first.
	tie := []Value{AtLeast(2), Exact(2), Exact(9)}
	if got := Percentile(tie, 1.0/3); got != Exact(2) {
		t.Errorf("Percentile tie = %+v, want exact 2", got)
	}
}

// naivePercentile is nearest rank on sorted plain values.
func naivePercentile(xs []float64, p float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	for k := 1; k <= len(s); k++ {
		if float64(k)/float64(len(s)) >= p-1e-9 {
			return s[k-1]
		}
	}
	return s[len(s)-1]
}

// The mark is right exactly when raising every censored value to +Inf (the
// largest possible raise) would change the percentile.
func TestPercentileMarkAgainstOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 30).Draw(t, "n")
		vs := make([]Value, n)
		plain, raised := make([]float64, n), make([]float64, n)
		for i := range vs {
			vs[i] = Value{V: float64(rapid.IntRange(0, 10).Draw(t, "v")), Censored: rapid.Bool().Draw(t, "c")}
			plain[i], raised[i] = vs[i].V, vs[i].V
			if vs[i].Censored {
				raised[i] = math.Inf(1)
			}
		}
		ps := make([]float64, rapid.IntRange(1, 4).Draw(t, "ps"))
		for i := range ps {
			ps[i] = float64(rapid.IntRange(1, 100).Draw(t, "p")) / 100
		}
		// Percentiles sorts once for every p; each answer must be the
		// oracle's for that p alone.
		for i, got := range Percentiles(vs, ps...) {
			p := ps[i]
			if want := naivePercentile(plain, p); got.V != want {
				t.Fatalf("Percentile(p=%v) value %v, want %v", p, got.V, want)
			}
			if moved := naivePercentile(raised, p) != got.V; moved != got.Censored {
				t.Fatalf("Percentile(p=%v) mark %v, but raising censored values moves it: %v", p, got.Censored, moved)
			}
		}
	})
}

func TestJSON(t *testing.T) {
	b, err := json.Marshal([]Value{Exact(1.5), AtLeast(2), {V: math.NaN()}})
	if err != nil || string(b) != `[{"value":1.5},{"value":2,"lower_bound":true},{"value":null}]` {
		t.Errorf("json = %s %v", b, err)
	}
	var f []Float
	if err := json.Unmarshal([]byte(`[1,null]`), &f); err != nil || f[0] != 1 || !math.IsNaN(float64(f[1])) {
		t.Errorf("unmarshal = %v %v", f, err)
	}
}
