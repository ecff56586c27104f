package tenure

import (
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/reserve"
)

// Reserve runs Config.Reservation's planner at the cycle's instant
// ([reserve.Planner.Plan]): it keeps, re-plans, releases and takes
// reservations from in, and, when model is not nil, runs the requeue pass
// of each reservation whose planned start has come, under the Policy's
// engine filters (min-runtime protection, eviction budget, preemptor
// delay) and limits. A running job whose ProtectedUntil is zero is counted
// protected as the Policy's min-runtime filter protects it (the later of a
// preemption in its queue and a reclaim from the root). evictionRecords holds, by job ID, the eviction-record
// annotation of the jobs on the reserved nodes (under
// Config.EvictionBudget; nil otherwise); write the record of each
// committed victim with [Cycle.RecordEviction]. Call it before the
// cycle's placements, and ask [Cycle.Backfill] before starting a job on a
// node. Wake includes every planned start ahead. The reservations live in
// the Policy and in those UpdateQueues returns from it.
func (c *Cycle) Reserve(in reserve.Input, evictionRecords map[string]string, model requeue.Model) (reserve.Result, error) {
	c.loadRecords(&RequeueInput{EvictionRecords: evictionRecords})
	defer clear(c.p.records)
	res, err := c.p.planner.Plan(c.now, in, model)
	c.note(res.Wake)
	return res, err
}

// Backfill decides whether pending job r may start on node given the
// reservations of the last [Cycle.Reserve] ([reserve.Planner.Backfill]):
// on a reserved node only if it leaves before the planned start, which is
// then its Until. A zero r.MinRuntime is the longer of the min-runtimes
// the Policy would give r once running (preempted in its queue, reclaimed
// from the root). O(1); no allocation.
func (c *Cycle) Backfill(r *reserve.Request, node string) eligibility.Decision {
	if r != nil && r.MinRuntime == 0 {
		own := *r
		own.MinRuntime = c.p.minRuntime(r)
		r = &own
	}
	d := c.p.planner.Backfill(c.now, r, node)
	c.note(d.Until)
	return d
}
