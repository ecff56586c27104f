package replica

import (
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// nodeStrata draws a node list's strata: a few types, some rare.
func nodeStrata(t *rapid.T) []string {
	types := rapid.SliceOfN(rapid.SampledFrom([]string{"G2", "T4", "P100", "V100", "A10", "G3"}), 1, 6).Draw(t, "types")
	return rapid.SliceOfN(rapid.SampledFrom(types), 1, 400).Draw(t, "strata")
}

// counts counts the nodes of each stratum among the indices idx (all of
// them when idx is nil), in the order strata first lists them.
func counts(strata []string, idx []int) (keys []string, n map[string]int) {
	n = map[string]int{}
	for _, s := range strata {
		if _, ok := n[s]; !ok {
			keys = append(keys, s)
			n[s] = 0
		}
	}
	if idx == nil {
		for _, s := range strata {
			n[s]++
		}
		return keys, n
	}
	for _, i := range idx {
		n[strata[i]]++
	}
	return keys, n
}

// Every replicate's sample has, in every stratum, the largest-remainder
// share of the sample size, and that share is within 1 of the exact
// proportional one; indices are ascending and distinct.
func TestSampleKeepsTheMix(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		strata := nodeStrata(t)
		stride := rapid.IntRange(1, 60).Draw(t, "stride")
		var r *rand.Rand
		if seed := rapid.Uint64().Draw(t, "seed"); seed != 0 {
			r = NodeRand(seed)
		}
		got := Sample(strata, stride, r)
		total := SampleSize(len(strata), stride)
		if len(got) != total || !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != total {
			t.Fatalf("Sample kept %v, want %d distinct ascending indices", got, total)
		}
		keys, all := counts(strata, nil)
		_, kept := counts(strata, got)
		sizes := make([]int, len(keys))
		for k, s := range keys {
			sizes[k] = all[s]
		}
		share := Allocate(sizes, total)
		for k, s := range keys {
			if kept[s] != share[k] {
				t.Fatalf("stratum %s: kept %d, its share is %d", s, kept[s], share[k])
			}
			exact := float64(all[s]) * float64(total) / float64(len(strata))
			if d := float64(share[k]) - exact; d <= -1 || d >= 1 {
				t.Fatalf("stratum %s: share %d, exact %.3f", s, share[k], exact)
			}
		}
	})
}

// The largest remainders get the units left, and the shares sum to the
// total.
func TestAllocate(t *testing.T) {
	if got := Allocate([]int{549, 387, 107, 39, 28}, 28); !slices.Equal(got, []int{14, 10, 2, 1, 1}) {
		t.Errorf("Allocate = %v", got)
	}
	rapid.Check(t, func(t *rapid.T) {
		sizes := rapid.SliceOfN(rapid.IntRange(0, 500), 1, 20).Draw(t, "sizes")
		n := 0
		for _, s := range sizes {
			n += s
		}
		total := rapid.IntRange(0, n).Draw(t, "total")
		sum := 0
		for i, a := range Allocate(sizes, total) {
			if a < 0 || a > sizes[i] {
				t.Fatalf("share %d of a stratum of %d", a, sizes[i])
			}
			sum += a
		}
		if sum != total {
			t.Fatalf("shares sum to %d, want %d", sum, total)
		}
	})
}

func TestSampleSeeds(t *testing.T) {
	strata := make([]string, 1213)
	for i := range strata {
		strata[i] = []string{"G2", "T4", "P100", "G3"}[i%7%4]
	}
	id := Sample(strata, 40, nil)
	if !slices.Equal(id, Sample(strata, 40, nil)) {
		t.Error("the identity sample is not deterministic")
	}
	if len(id) != 31 {
		t.Errorf("1,213 nodes at stride 40: %d kept, want 31", len(id))
	}
	a, b := Sample(strata, 40, NodeRand(7)), Sample(strata, 40, NodeRand(8))
	if !slices.Equal(a, Sample(strata, 40, NodeRand(7))) {
		t.Error("the same seed gave two samples")
	}
	if slices.Equal(a, b) || slices.Equal(a, id) {
		t.Error("different seeds gave the same sample")
	}
	all := Sample(strata, 1, NodeRand(9))
	if len(all) != len(strata) || all[0] != 0 || all[len(all)-1] != len(strata)-1 {
		t.Errorf("stride 1 kept %d of %d nodes", len(all), len(strata))
	}
}

func TestStratum(t *testing.T) {
	if Stratum("G2", 8, 96000, 393216) != Stratum("G2", 8, 104000, 400000) {
		t.Error("96 and 104 cores, 384 and 390 GiB: one size class")
	}
	if Stratum("G2", 8, 96000, 393216) == Stratum("G2", 4, 96000, 393216) || Stratum("P100", 2, 16000, 122880) == Stratum("P100", 2, 64000, 262144) {
		t.Error("a GPU count or a size class apart: two strata")
	}
}
