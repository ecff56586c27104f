package requeue_test

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/requeue"
)

// Under the default Eviction strategy a job evicted by readiness timeout
// goes to the back of its priority level; under Creation it keeps its place.
func ExampleQueueOrder_Sort() {
	t0 := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	pending := []requeue.QueueEntry{
		{ID: "train-a", Priority: 1, Created: t0, TimeoutEvicted: t0.Add(30 * time.Minute)},
		{ID: "train-b", Priority: 1, Created: t0.Add(10 * time.Minute)},
		{ID: "urgent", Priority: 9, Created: t0.Add(20 * time.Minute)},
	}
	for _, s := range []requeue.TimestampStrategy{requeue.TimestampEviction, requeue.TimestampCreation} {
		o := requeue.QueueOrder{Strategy: s}
		o.Sort(pending)
		fmt.Print(s, ":")
		for _, e := range pending {
			fmt.Print(" ", e.ID)
		}
		fmt.Println()
	}
	// Output:
	// Eviction: urgent train-b train-a
	// Creation: urgent train-a train-b
}
