package cluster

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

func drawVec(t *rapid.T, l string) Resources {
	return Resources{MilliCPU: rapid.Int64Range(0, 6).Draw(t, l+"a"), GPU: rapid.Int64Range(0, 6).Draw(t, l+"b")}
}

// TestIndexOracle: Next and Root against a linear scan of the leaves,
// over random sequences of Set, with from anywhere (negative, past the
// end) and n anywhere from 0 (padding to a power of two included).
func TestIndexOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 37).Draw(t, "n")
		leaves := make([]Resources, n)
		for i := range leaves {
			leaves[i] = drawVec(t, "leaf")
		}
		x := newFreeIndex(n, func(i int) Resources { return leaves[i] })
		for range rapid.IntRange(1, 50).Draw(t, "steps") {
			if n > 0 && rapid.Bool().Draw(t, "set") {
				i := rapid.IntRange(0, n-1).Draw(t, "i")
				leaves[i] = drawVec(t, "new")
				x.Set(i, leaves[i])
			}
			r := drawVec(t, "r")
			from := rapid.IntRange(-2, n+2).Draw(t, "from")
			want := -1
			for i := max(from, 0); i < n; i++ {
				if r.fits(leaves[i]) {
					want = i
					break
				}
			}
			if got := x.Next(from, r); got != want {
				t.Fatalf("Next(%d, %v) = %d, scan %d (leaves %v)", from, r, got, want, leaves)
			}
			root := noRoom
			for _, l := range leaves {
				root = root.max(l)
			}
			if x.Root() != root || x.Len() != n {
				t.Fatalf("Root %v Len %d, want %v %d", x.Root(), x.Len(), root, n)
			}
			if n > 0 {
				i := rapid.IntRange(0, n-1).Draw(t, "leaf")
				if x.Leaf(i) != leaves[i] {
					t.Fatalf("Leaf(%d) = %v, want %v", i, x.Leaf(i), leaves[i])
				}
			}
		}
		// A clone answers the same and is independent.
		if n > 0 {
			c := x.Clone()
			c.Set(0, Resources{MilliCPU: 100, GPU: 100})
			if x.Leaf(0) != leaves[0] || c.Next(0, Resources{MilliCPU: 100, GPU: 100}) != 0 {
				t.Fatalf("clone not independent")
			}
			if err := x.check(); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestIndexZero: the zero freeIndex, and one of no leaves, find nothing, not
// even the zero request, and have noRoom as their root.
func TestIndexZero(t *testing.T) {
	for _, x := range []freeIndex{{}, newFreeIndex(0, nil), newFreeIndex(-1, nil)} {
		if x.Len() != 0 || x.Next(0, Resources{}) != -1 || x.Next(-1, Resources{}) != -1 || x.Root() != noRoom {
			t.Fatalf("empty Index: Len %d Next %d Root %v", x.Len(), x.Next(0, Resources{}), x.Root())
		}
	}
}

// TestIndexDeadRanges: a range admits the request while no leaf of it
// does (one leaf has the cores, the other the GPUs); Next moves on past it to
// the leaf that holds the request, and -1 when none does.
func TestIndexDeadRanges(t *testing.T) {
	cpu, gpu, both := Resources{MilliCPU: 4}, Resources{GPU: 4}, Resources{MilliCPU: 4, GPU: 4}
	leaves := []Resources{cpu, gpu, cpu, gpu, both}
	x := newFreeIndex(len(leaves), func(i int) Resources { return leaves[i] })
	for from, want := range []int{4, 4, 4, 4, 4, -1} {
		if got := x.Next(from, Resources{MilliCPU: 3, GPU: 3}); got != want {
			t.Errorf("Next(%d) = %d, want %d", from, got, want)
		}
	}
	x.Set(4, cpu)
	if got := x.Next(0, Resources{MilliCPU: 3, GPU: 3}); got != -1 {
		t.Errorf("Next after the last fit left = %d, want -1", got)
	}
}

// TestIndexAllocs: Set and Next allocate nothing.
func TestIndexAllocs(t *testing.T) {
	x := newFreeIndex(100, func(i int) Resources { return Resources{MilliCPU: int64(i % 7), GPU: int64(i % 5)} })
	allocs := testing.AllocsPerRun(100, func() {
		x.Set(42, Resources{MilliCPU: 6, GPU: 6})
		_ = x.Next(3, Resources{MilliCPU: 6, GPU: 6})
		x.Set(42, Resources{MilliCPU: 0, GPU: 0})
	})
	if allocs != 0 {
		t.Fatalf("%v allocations", allocs)
	}
}

// BenchmarkIndex: one node in n has room for the request, and it moves at
// every step (two Sets); first fit finds it from node 0. The naive
// baseline scans the nodes in order. At 1,000 and 10,000 nodes.
func BenchmarkIndex(b *testing.B) {
	full, room := Resources{MilliCPU: 64000, Memory: 1 << 30, GPU: 1}, Resources{MilliCPU: 64000, Memory: 1 << 30, GPU: 8}
	r := Resources{MilliCPU: 1000, GPU: 4}
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("nodes=%d/Index", n), func(b *testing.B) {
			x := newFreeIndex(n, func(int) Resources { return full })
			b.ReportAllocs()
			at := 0
			for b.Loop() {
				x.Set(at, full)
				at = (at + 7919) % n
				x.Set(at, room)
				if x.Next(0, r) != at {
					b.Fatal("not found")
				}
			}
		})
		b.Run(fmt.Sprintf("nodes=%d/naive", n), func(b *testing.B) {
			leaves := make([]Resources, n)
			for i := range leaves {
				leaves[i] = full
			}
			b.ReportAllocs()
			at := 0
			for b.Loop() {
				leaves[at] = full
				at = (at + 7919) % n
				leaves[at] = room
				i := 0
				for i < n && !r.fits(leaves[i]) {
					i++
				}
				if i != at {
					b.Fatal("not found")
				}
			}
		})
	}
}

// TestIndexSetOutsidePanics: Set outside [0, Len()) panics, on a padded
// freeIndex (3 leaves, 4 slots) as on the zero freeIndex, instead of writing a
// padding leaf that Root would then report.
func TestIndexSetOutsidePanics(t *testing.T) {
	three := func() *freeIndex { x := newFreeIndex(3, func(int) Resources { return Resources{} }); return &x }
	for _, tc := range []struct {
		x *freeIndex
		i int
	}{{three(), 3}, {three(), -1}, {&freeIndex{}, 0}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Set(%d) on an Index of %d leaves did not panic", tc.i, tc.x.Len())
				}
			}()
			tc.x.Set(tc.i, Resources{GPU: 8})
		}()
	}
}
