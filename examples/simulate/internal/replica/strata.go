package replica

import (
	"cmp"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
)

// Stratum names the stratum of a node: its GPU model, its GPU count and
// the size class of its CPU and of its memory, each the power of two at
// or below it (64,000 and 96,000 milli-CPUs are both class 2^16). The
// classes group nodes that differ by a few cores into one stratum on
// node lists with many distinct sizes; on the openb node list they
// separate exactly the node types it has.
func Stratum(model string, gpus int32, cpuMilli, memMiB int64) string {
	return fmt.Sprintf("%s/%dgpu/cpu2^%d/mem2^%d", model, gpus, log2(cpuMilli), log2(memMiB))
}

// log2 is the floor of the base-2 logarithm of x, 0 for x <= 1.
func log2(x int64) int {
	if x <= 1 {
		return 0
	}
	return bits.Len64(uint64(x)) - 1
}

// SampleSize is the number of nodes a sample of one in stride keeps from
// n nodes: ⌈n/stride⌉, the count every k-th node from the first keeps.
func SampleSize(n, stride int) int {
	if stride <= 1 {
		return n
	}
	return (n + stride - 1) / stride
}

// Allocate splits total among strata of the given sizes in proportion to
// their sizes, rounding by largest remainder (Hamilton's method): each
// stratum gets the floor of its exact share, and the units left go to the
// largest fractional parts, ties to the larger stratum, then to the one
// listed first. The result sums to total (0 <= total <= the sum of sizes)
// and each share is within 1 of the exact one.
func Allocate(sizes []int, total int) []int {
	n := 0
	for _, s := range sizes {
		n += s
	}
	alloc := make([]int, len(sizes))
	if n == 0 {
		return alloc
	}
	rem := make([]int, len(sizes))
	left := total
	for i, s := range sizes {
		alloc[i], rem[i] = s*total/n, s*total%n
		left -= alloc[i]
	}
	order := make([]int, len(sizes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(rem[b], rem[a]), cmp.Compare(sizes[b], sizes[a]))
	})
	for _, i := range order[:left] {
		alloc[i]++
	}
	return alloc
}

// Sample returns, in ascending order, the indices of the nodes a
// stratified sample keeps from a node list whose i-th node is in stratum
// strata[i]: SampleSize(len(strata), stride) nodes, each stratum
// contributing its Allocate share. Which nodes of a stratum are kept is
// r's draw (uniform, without replacement); with r nil (the identity
// replicate) it is the members evenly spaced through the stratum in list
// order (member ⌊(2j+1)m/2q⌋ for j < q, of a stratum of m nodes with share
// q), so the default sample is deterministic. With stride 1 every node is
// kept.
func Sample(strata []string, stride int, r *rand.Rand) []int {
	var keys []string
	members := map[string][]int{}
	for i, s := range strata {
		if _, ok := members[s]; !ok {
			keys = append(keys, s)
		}
		members[s] = append(members[s], i)
	}
	sizes := make([]int, len(keys))
	for k, s := range keys {
		sizes[k] = len(members[s])
	}
	share := Allocate(sizes, SampleSize(len(strata), stride))
	var kept []int
	for k, s := range keys {
		kept = append(kept, choose(members[s], share[k], r)...)
	}
	slices.Sort(kept)
	return kept
}

// choose picks q of the members: evenly spaced when r is nil, else a
// uniform draw without replacement (a partial Fisher–Yates shuffle of a
// copy).
func choose(members []int, q int, r *rand.Rand) []int {
	m := len(members)
	out := make([]int, 0, q)
	if r == nil {
		for j := range q {
			out = append(out, members[(2*j+1)*m/(2*q)])
		}
		return out
	}
	pool := slices.Clone(members)
	for j := range q {
		k := j + r.IntN(m-j)
		pool[j], pool[k] = pool[k], pool[j]
		out = append(out, pool[j])
	}
	return out
}
