package backoff_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/requeue/backoff"
)

// orderFixture returns n pending jobs: 10 priority levels, creation spread
// over a week, a fifth of them evicted by readiness timeout.
func orderFixture(n int) []backoff.QueueEntry {
	r := rand.New(rand.NewPCG(42, 7))
	es := make([]backoff.QueueEntry, n)
	for i := range es {
		es[i] = backoff.QueueEntry{
			ID:       fmt.Sprintf("ns-%d/job-%06d", r.IntN(50), i),
			Priority: int32(r.IntN(10)),
			Created:  orderT0.Add(time.Duration(r.Int64N(int64(7 * 24 * time.Hour)))),
		}
		if r.IntN(5) == 0 {
			es[i].TimeoutEvicted = es[i].Created.Add(time.Duration(r.Int64N(int64(24 * time.Hour))))
		}
	}
	return es
}

const orderBenchN = 50_000

// BenchmarkQueueOrderSort sorts 50,000 pending jobs with QueueOrder.Sort
// (timestamps computed once). Each iteration sorts a fresh copy.
func BenchmarkQueueOrderSort(b *testing.B) {
	benchOrderSort(b, backoff.QueueOrder{}.Sort)
}

// BenchmarkQueueOrderSortCompare is a baseline: slices.SortFunc with
// QueueOrder.Compare, recomputing both timestamps in every comparison.
func BenchmarkQueueOrderSortCompare(b *testing.B) {
	o := backoff.QueueOrder{}
	benchOrderSort(b, func(es []backoff.QueueEntry) { slices.SortFunc(es, o.Compare) })
}

// benchOrderSort times sortFn on a fresh copy of the 50,000-job fixture
// (the copy is timed too: it is the same for every sort).
func benchOrderSort(b *testing.B, sortFn func([]backoff.QueueEntry)) {
	src := orderFixture(orderBenchN)
	work := make([]backoff.QueueEntry, len(src))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		copy(work, src)
		sortFn(work)
	}
}

// BenchmarkQueueOrderSortNaive is the naive baseline: sort.Slice with a
// closure that recomputes each timestamp and compares time.Time values.
func BenchmarkQueueOrderSortNaive(b *testing.B) {
	src := orderFixture(orderBenchN)
	work := make([]backoff.QueueEntry, len(src))
	ts := func(e backoff.QueueEntry) time.Time {
		if !e.TimeoutEvicted.IsZero() {
			return e.TimeoutEvicted
		}
		return e.Created
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		copy(work, src)
		sort.Slice(work, func(i, j int) bool {
			a, c := work[i], work[j]
			if a.Priority != c.Priority {
				return a.Priority > c.Priority
			}
			if !ts(a).Equal(ts(c)) {
				return ts(a).Before(ts(c))
			}
			return a.ID < c.ID
		})
	}
}
