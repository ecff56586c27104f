package sim

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestHeapOracle: pushing with siftUp and draining with popMin yields the
// elements in sorted order (the oracle: slices.Sort), under random
// interleavings of pushes and pops, duplicates included.
func TestHeapOracle(t *testing.T) {
	less := func(a, b int) bool { return a < b }
	rapid.Check(t, func(t *rapid.T) {
		var h, oracle []int
		for _, op := range rapid.SliceOf(rapid.IntRange(-5, 20)).Draw(t, "ops") {
			if op < 0 && len(h) > 0 { // pop
				var got int
				got, h = popMin(h, less)
				slices.Sort(oracle)
				if got != oracle[0] {
					t.Fatalf("popMin = %d, want %d", got, oracle[0])
				}
				oracle = oracle[1:]
				continue
			}
			h = append(h, op)
			siftUp(h, len(h)-1, less)
			oracle = append(oracle, op)
		}
		// siftDown after lowering the root's priority keeps the order too.
		if len(h) > 0 {
			h[0] = 100
			siftDown(h, 0, less)
			oracle[slices.Index(oracle, slices.Min(oracle))] = 100
		}
		slices.Sort(oracle)
		for _, want := range oracle {
			var got int
			got, h = popMin(h, less)
			if got != want {
				t.Fatalf("drain: %d, want %d", got, want)
			}
		}
	})
}
