package compare

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/stats"
)

func exact(xs ...float64) []stats.Value {
	out := make([]stats.Value, len(xs))
	for i, x := range xs {
		out[i] = stats.Exact(x)
	}
	return out
}

var metrics = []Metric{{"evictions", "evictions", true}, {"goodput", "goodput", false}, {"wait", "p95 wait", false}}

func arms() []Arm {
	return []Arm{
		{"priority", [][]stats.Value{exact(0, 0, 0, 0, 40), exact(10, 20, 30, 40, 50), exact(1, 2, 3, 4, 5)}},
		{"minruntime", [][]stats.Value{exact(1, 0, 2, 0, 41), exact(15, 25, 35, 45, 55), {stats.Exact(1), stats.AtLeast(9), stats.Exact(3), stats.Exact(4), stats.Exact(5)}}},
	}
}

func TestCompare(t *testing.T) {
	r := Compare([]int64{1, 2, 3, 4, 5}, metrics, arms(), Options{})
	if r.Family != 3 {
		t.Errorf("family = %d, want 3 (the censored wait by a sign test)", r.Family)
	}
	ev := r.Metrics[0].Arms[0]
	if ev.Interval != "bootstrap-t" || ev.Lo < 0 || ev.Mean != 8 {
		t.Errorf("evictions: %+v, want a non-negative bootstrap-t interval around 8", ev)
	}
	// goodput: every seed +5 exactly: differs, p 0.
	g := r.Metrics[1].Arms[1]
	if g.Interval != "t" || g.Diff.Mean != 5 || !g.Diff.Differs || g.Diff.P != 0 {
		t.Errorf("goodput diff: %+v", g.Diff)
	}
	// Unpaired, the two goodput intervals overlap widely.
	if p := r.Metrics[1].Arms[0]; p.Hi < g.Lo {
		t.Errorf("setup: unpaired intervals should overlap: %+v vs %+v", p, g)
	}
	w := r.Metrics[2].Arms[1]
	// Seed 2's lower bound 9 is above priority's 2: one seed above, four
	// equal; a sign test over one seed: p 1.
	if !w.LowerBound || w.Censored != 1 || w.Diff.Untested != "" || w.Diff.Test != "sign" ||
		w.Diff.Support != (Support{Above: 1, Equal: 4}) || w.Diff.P != 1 {
		t.Errorf("censored wait: %+v %+v", w, w.Diff)
	}
	// evictions diff 1,0,2,0,1: mean 0.8, sd sqrt(0.7), t = 2.138 on 4
	// degrees of freedom, p = 0.099; second of the family's three p-values
	// under Holm (factor 2): not different.
	e := r.Metrics[0].Arms[1].Diff
	if !(e.P > 0.098 && e.P < 0.100) || math.Abs(float64(e.PHolm-2*e.P)) > 1e-12 || e.Differs || e.Lo > 0 {
		t.Errorf("evictions diff: %+v", e)
	}
}

func TestTextAndJSON(t *testing.T) {
	r := Compare([]int64{1, 2, 3, 4, 5}, metrics, arms(), Options{})
	var b strings.Builder
	if err := WriteText(&b, r, "policy"); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"5 runs (seeds 1..5)", "Holm's correction over the 3 differences", "35.0 [15.4, 54.6] *", "≥4.4 [", "sign test 0< 1> 4= (p 1)", "5.0 [5.0, 5.0] (p <0.001)", "0.800 [", "0< 5>", "≥1"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	js, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"holm_family":3`, `"per_seed":[{"value":1},{"value":9,"lower_bound":true}`, `"test":"sign"`, `"support":{"below":0,"above":1,"equal":4,"unknown":0}`} {
		if !strings.Contains(string(js), want) {
			t.Errorf("JSON lacks %s:\n%s", want, js)
		}
	}
	one := Compare([]int64{7}, metrics[:1], []Arm{{"a", [][]stats.Value{exact(3)}}, {"b", [][]stats.Value{exact(4)}}}, Options{})
	if d := one.Metrics[0].Arms[1].Diff; d.Untested != "one seed" {
		t.Errorf("one seed: %+v", d)
	}
	same := Compare([]int64{1, 2}, metrics[:1], []Arm{{"a", [][]stats.Value{exact(3, 4)}}, {"b", [][]stats.Value{exact(3, 4)}}}, Options{})
	if d := same.Metrics[0].Arms[1].Diff; d.Untested != "identical" || same.Family != 0 {
		t.Errorf("identical arms: %+v, family %d", d, same.Family)
	}
	if _, err := json.Marshal(one); err != nil {
		t.Errorf("one-seed JSON: %v", err)
	}
}

func TestFamily(t *testing.T) {
	r := Compare([]int64{1, 2, 3, 4, 5}, metrics, arms(), Options{Family: []string{"goodput"}})
	if r.Family != 1 || r.Metrics[0].Arms[1].Diff.Untested != "outside the family" || !r.Metrics[1].Arms[1].Diff.Differs {
		t.Errorf("family %d, evictions %+v, goodput %+v", r.Family, r.Metrics[0].Arms[1].Diff, r.Metrics[1].Arms[1].Diff)
	}
}

// The support settles an order only where a lower bound allows it, and the
// sign test counts the unsettled seeds against each direction.
func TestSupportAndSignTest(t *testing.T) {
	a := []stats.Value{stats.Exact(1), stats.Exact(5), stats.AtLeast(7), stats.AtLeast(3), stats.AtLeast(2), stats.Exact(4)}
	b := []stats.Value{stats.Exact(2), stats.AtLeast(6), stats.Exact(6), stats.Exact(3), stats.AtLeast(9), stats.Exact(4)}
	// below (exact<exact), below (5 < ≥6), above (≥7 > 6), unknown (≥3 vs
	// 3), unknown (two bounds), equal.
	if got, want := supportOf(a, b), (Support{Below: 2, Above: 1, Equal: 1, Unknown: 2}); got != want {
		t.Errorf("support = %+v, want %+v", got, want)
	}
	// 17 below, 3 unsettled of 20: 2·P(Bin(20, 1/2) >= 17) = 2·1351/2^20.
	if p, want := signP(Support{Below: 17, Unknown: 3}), 2*1351/math.Pow(2, 20); math.Abs(p-want) > 1e-12 {
		t.Errorf("signP = %g, want %g", p, want)
	}
	if p := signP(Support{Below: 10, Above: 10}); p != 1 {
		t.Errorf("signP balanced = %g, want 1", p)
	}
	if d := pairedDiff([]stats.Value{stats.AtLeast(1), stats.AtLeast(1)}, exact(1, 1)); d.Untested != "lower bounds" {
		t.Errorf("nothing settled: %+v, want untested", d)
	}
}

// The same per-seed values of a metric get the same interval whatever the
// arm's position and the other arms (a -runs with other policies, a
// -sweep point) and whatever the metric's position: the resampling seed
// depends on the metric's name and the runs' seeds only. It differed by
// position before.
func TestCompareIntervalIndependentOfPosition(t *testing.T) {
	seeds := []int64{1, 2, 3, 4, 5, 6, 7, 8}
	ev, other := exact(3, 17, 4, 398, 9, 37, 10, 47), exact(5, 9, 1, 0, 3, 2, 8, 1)
	good := exact(1, 2, 3, 4, 5, 6, 7, 8)
	arm := func(name string, evs []stats.Value) Arm { return Arm{name, [][]stats.Value{evs, good, good}} }
	alone := Compare(seeds, metrics, []Arm{arm("a", ev)}, Options{}).Metrics[0].Arms[0]
	third := Compare(seeds, metrics, []Arm{arm("x", other), arm("y", other), arm("a", ev)}, Options{}).Metrics[0].Arms[2]
	if alone.Lo != third.Lo || alone.Hi != third.Hi {
		t.Errorf("first of one arm [%v, %v], third of three [%v, %v]: want the same interval", alone.Lo, alone.Hi, third.Lo, third.Hi)
	}
	swapped := []Metric{metrics[1], metrics[0], metrics[2]}
	moved := Compare(seeds, swapped, []Arm{{"a", [][]stats.Value{good, ev, good}}}, Options{}).Metrics[1].Arms[0]
	if alone.Lo != moved.Lo || alone.Hi != moved.Hi {
		t.Errorf("metric first [%v, %v], second [%v, %v]: want the same interval", alone.Lo, alone.Hi, moved.Lo, moved.Hi)
	}
}
