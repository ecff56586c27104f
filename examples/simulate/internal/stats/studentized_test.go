package stats

import (
	"math"
	"testing"
)

// The bootstrap-t is deterministic for its seed, never narrower than
// Student's t, and longer above than below on a right-skewed sample.
func TestStudentizedSkewedCounts(t *testing.T) {
	xs := []float64{7, 9, 37, 398, 10, 3, 47, 23, 8, 4}
	iv := Studentized(xs, 2000, 0.95, 1)
	tiv := tInterval(xs)
	if iv != Studentized(xs, 2000, 0.95, 1) {
		t.Fatal("not deterministic for its seed")
	}
	if iv.Est != tiv.Est || iv.Lo > tiv.Lo || iv.Hi < tiv.Hi {
		t.Errorf("bootstrap-t %+v narrower than Student's t %+v", iv, tiv)
	}
	if iv.Hi-iv.Est <= iv.Est-iv.Lo {
		t.Errorf("bootstrap-t %+v: want a longer upper arm on a right-skewed sample", iv)
	}
	if c := Studentized([]float64{3, 3, 3}, 100, 0.95, 7); c.Lo != 3 || c.Hi != 3 {
		t.Errorf("constant data: %+v, want [3, 3]", c)
	}
	if one := Studentized([]float64{3}, 100, 0.95, 7); !math.IsNaN(one.Lo) || one.Est != 3 {
		t.Errorf("one value: %+v, want the mean and NaN limits", one)
	}
}
