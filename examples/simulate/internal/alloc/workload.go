package alloc

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"
)

// Workload returns the arrival sequence of one run, as indices into
// pods: every pod once, sorted by name and then shuffled with rng, followed
// by pods drawn uniformly from the whole list (with replacement) for as
// long as the next draw keeps the total GPU demand within tune ×
// capacityMilli; the first draw that would exceed it ends the sequence.
// With tune × capacity below the list's own demand the list is replayed
// whole. Cost O(n log n + draws).
func Workload(pods []trace.Request, capacityMilli int64, tune float64, rng *rand.Rand) []int {
	order := make([]int, len(pods))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(pods[a].Name, pods[b].Name) })
	rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	var total int64
	for _, q := range pods {
		total += demand(q)
	}
	target := tune * float64(capacityMilli)
	for len(pods) > 0 {
		i := rng.IntN(len(pods))
		if float64(total+demand(pods[i])) > target {
			break
		}
		total += demand(pods[i])
		order = append(order, i)
	}
	return order
}

// demand is q's GPU request in thousandths of a GPU.
func demand(q trace.Request) int64 { return int64(q.GPUs) * int64(q.GPUMilli) }

// shapeKey identifies a scoring shape: CPU, GPUs, share and models.
type shapeKey struct {
	cpu         int64
	gpus, milli int32
	models      string
}

func keyOf(q trace.Request) shapeKey {
	return shapeKey{q.CPU, q.GPUs, q.GPUMilli, strings.Join(q.Models, "|")}
}

// internPods converts pods, numbering their distinct scoring shapes; it
// returns the pods and the number of shapes.
func internPods(list []trace.Request) ([]pod, int) {
	ids := map[shapeKey]int32{}
	out := make([]pod, len(list))
	for i, q := range list {
		k := keyOf(q)
		id, ok := ids[k]
		if !ok {
			id = int32(len(ids))
			ids[k] = id
		}
		out[i] = pod{cpu: q.CPU, mem: q.Mem, gpus: q.GPUs, milli: q.GPUMilli, models: q.Models, shape: id}
	}
	return out, len(ids)
}
