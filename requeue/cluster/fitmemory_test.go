package cluster

import (
	"testing"

	"pgregory.net/rapid"
)

// TestFitMemoryOracle: a first fit that asks the memory before searching,
// as Model.findFit does, against a linear scan, over random sequences of
// leaves shrinking (not logged) and growing (logged), with requests drawn
// from more values than the memory has slots, so that they repeat and
// share slots; Check holds after every step.
func TestFitMemoryOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 20).Draw(t, "n")
		free := make([]Resources, n)
		for i := range free {
			free[i] = Resources{MilliCPU: rapid.Int64Range(0, 8).Draw(t, "a"), GPU: rapid.Int64Range(0, 8).Draw(t, "b")}
		}
		var m fitMemory
		if rapid.Bool().Draw(t, "made") {
			m = *newFitMemory(n)
		}
		scan := func(r Resources) int {
			for i, f := range free {
				if r.fits(f) {
					return i
				}
			}
			return -1
		}
		for range rapid.IntRange(1, 80).Draw(t, "steps") {
			i := rapid.IntRange(0, n-1).Draw(t, "leaf")
			c := &free[i].MilliCPU
			if rapid.Bool().Draw(t, "gpu") {
				c = &free[i].GPU
			}
			if d := rapid.Int64Range(-3, 3).Draw(t, "delta"); d > 0 {
				*c += d
				m.Grew(int32(i))
			} else {
				*c = max(0, *c+d)
			}
			r := Resources{MilliCPU: rapid.Int64Range(0, 12).Draw(t, "ra"), GPU: rapid.Int64Range(0, 12).Draw(t, "rb")}
			got := -1
			if since, ok := m.Recall(r); ok {
				for _, l := range since {
					if r.fits(free[l]) && (got < 0 || int(l) < got) {
						got = int(l)
					}
				}
				if got < 0 {
					m.Remember(r)
				}
			} else if got = scan(r); got < 0 {
				m.Remember(r)
			}
			if want := scan(r); got != want {
				t.Fatalf("first fit of %v = %d, scan %d (free %v)", r, got, want, free)
			}
			if err := m.Check(n, func(r Resources, i int) bool { return r.fits(free[i]) }); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestFitMemoryScanLimit: Recall gives up (a search is cheaper) once more
// leaves were logged since than max(64, leaves/8), and answers again once
// the request is remembered anew.
func TestFitMemoryScanLimit(t *testing.T) {
	r := Resources{MilliCPU: 7}
	for _, tc := range []struct{ leaves, limit int }{{10, 64}, {1000, 125}} {
		m := newFitMemory(tc.leaves)
		m.Remember(r)
		for i := range tc.limit {
			m.Grew(int32(i % tc.leaves))
		}
		if since, ok := m.Recall(r); !ok || len(since) != tc.limit {
			t.Fatalf("%d leaves: Recall after %d grew = %d leaves, %v", tc.leaves, tc.limit, len(since), ok)
		}
		m.Grew(0)
		if _, ok := m.Recall(r); ok {
			t.Fatalf("%d leaves: Recall after %d grew still answers", tc.leaves, tc.limit+1)
		}
		m.Remember(r)
		if since, ok := m.Recall(r); !ok || len(since) != 0 {
			t.Fatalf("%d leaves: Recall after Remember = %v, %v", tc.leaves, since, ok)
		}
	}
}

// TestFitMemorySlots: a request that shares another's slot takes it (the
// first is forgotten, not confused with the second); nothing is logged
// while nothing is remembered; the zero memory recalls nothing, not even
// the zero request.
func TestFitMemorySlots(t *testing.T) {
	var m fitMemory
	if _, ok := m.Recall(Resources{}); ok {
		t.Fatal("the zero memory recalls the zero request")
	}
	m.Grew(3)
	if len(m.grown) != 0 {
		t.Fatal("logged with nothing remembered")
	}
	a, b := Resources{MilliCPU: 1}, Resources{MilliCPU: 2}
	for b.hash()&(fitMemorySize-1) != a.hash()&(fitMemorySize-1) {
		b.MilliCPU++
	}
	m.Remember(a)
	if _, ok := m.Recall(b); ok {
		t.Fatalf("%v answered from the slot of %v", b, a)
	}
	m.Remember(b)
	if _, ok := m.Recall(a); ok {
		t.Fatalf("%v still remembered after %v took its slot", a, b)
	}
	if _, ok := m.Recall(b); !ok || m.live != 1 {
		t.Fatalf("%v not remembered, or %d live entries", b, m.live)
	}
}

// TestFitMemoryForgets: past fitLogLimit logged leaves the memory starts
// over: everything is forgotten and the log is empty, also when the
// epoch counter wraps.
func TestFitMemoryForgets(t *testing.T) {
	var m fitMemory
	r := Resources{MilliCPU: 1}
	m.Remember(r)
	for range fitLogLimit + 1 {
		m.Grew(0)
	}
	if _, ok := m.Recall(r); ok || len(m.grown) != 0 || m.live != 0 {
		t.Fatalf("not forgotten: %d logged, %d live", len(m.grown), m.live)
	}
	m.epoch = ^uint32(0) - 1 // the last epoch before the counter wraps
	m.Remember(r)
	for range fitLogLimit + 1 {
		m.Grew(0)
	}
	if _, ok := m.Recall(r); ok || m.epoch != 0 {
		t.Fatalf("after the wrap: epoch %d, recalled %v", m.epoch, ok)
	}
}
