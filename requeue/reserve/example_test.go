package reserve_test

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/reserve"
)

// A whole-node job has waited three hours. The planner holds the node that
// frees first; a short job may use its 4 free GPUs in the meantime, a
// long one may not.
func Example() {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	job := func(id, node string, units int64, started, expected time.Duration) reserve.Job {
		j := reserve.Job{Node: node, Units: units}
		j.ID, j.Start, j.Expected = id, now.Add(-started), expected
		return j
	}
	in := reserve.Input{
		Nodes: []reserve.Node{{Name: "node-a", Capacity: 8}, {Name: "node-b", Capacity: 8}},
		Running: []reserve.Job{
			job("train-1", "node-a", 4, time.Hour, 3*time.Hour), // 4 of 8 GPUs, ends in 2h
			job("train-2", "node-b", 8, time.Hour, 7*time.Hour), // ends in 6h
		},
		Pending: []reserve.Request{{Contender: requeue.Contender{ID: "big", Queued: now.Add(-3 * time.Hour)}, Tasks: 1, Units: 8}},
	}
	planner, err := reserve.New(reserve.Config{Max: 1, After: time.Hour})
	if err != nil {
		panic(err)
	}
	res, err := planner.Plan(now, in, nil) // no model: no requeue pass at the start
	if err != nil {
		panic(err)
	}
	h := res.Held[0]
	fmt.Printf("%s holds %v from %s\n", h.Holder, h.Nodes, h.Start.Sub(now))

	for _, expected := range []time.Duration{time.Hour, 3 * time.Hour} {
		small := reserve.Request{Contender: requeue.Contender{ID: "small"}, Tasks: 1, Units: 1, Expected: expected}
		fmt.Printf("a %s job on node-a: %v\n", expected, planner.Backfill(now, &small, "node-a"))
	}
	// Output:
	// big holds [node-a] from 2h0m0s
	// a 1h0m0s job on node-a: allowed (backfill)
	// a 3h0m0s job on node-a: denied (reserved) until 2026-06-01T14:00:00Z
}
