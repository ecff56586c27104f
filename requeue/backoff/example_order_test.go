package backoff_test

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/requeue/backoff"
)

// Under the default Eviction strategy a job evicted by readiness timeout
// goes to the back of its priority level; under Creation it keeps its place.
func ExampleQueueOrder_Sort() {
	t0 := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	pending := []backoff.QueueEntry{
		{ID: "train-a", Priority: 1, Created: t0, TimeoutEvicted: t0.Add(30 * time.Minute)},
		{ID: "train-b", Priority: 1, Created: t0.Add(10 * time.Minute)},
		{ID: "urgent", Priority: 9, Created: t0.Add(20 * time.Minute)},
	}
	for _, s := range []backoff.TimestampStrategy{backoff.TimestampEviction, backoff.TimestampCreation} {
		o := backoff.QueueOrder{Strategy: s}
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

// Kueue's other two rules: an admission-check eviction orders the job by
// that eviction under either strategy, and, while Kueue's
// PrioritySortingWithinCohort gate is off (RestampReclaimPreempted), a job
// preempted to reclaim borrowed quota sorts 1ms after its preemption.
func ExampleQueueOrder_Timestamp() {
	t0 := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	checked := backoff.QueueEntry{ID: "checked", Created: t0, AdmissionCheckEvicted: t0.Add(time.Hour)}
	reclaimed := backoff.QueueEntry{ID: "reclaimed", Created: t0, ReclaimPreempted: t0.Add(2 * time.Hour)}

	creation := backoff.QueueOrder{Strategy: backoff.TimestampCreation}
	fmt.Println(creation.Timestamp(checked).Format("15:04:05.000"))
	fmt.Println(backoff.QueueOrder{}.Timestamp(reclaimed).Format("15:04:05.000"))
	fmt.Println(backoff.QueueOrder{RestampReclaimPreempted: true}.Timestamp(reclaimed).Format("15:04:05.000"))
	// Output:
	// 10:00:00.000
	// 09:00:00.000
	// 11:00:00.001
}
