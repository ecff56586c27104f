package reserve

import (
	"time"

	"github.com/tenurepolicy/tenure/requeue"
)

// Node is a node a reservation may hold.
type Node struct {
	// Name identifies the node; the first of several entries with one name
	// counts.
	Name string
	// Capacity is what the node offers in the unit of Job.Units and
	// Request.Units (GPUs, say); a node of capacity 0 or less holds nothing.
	Capacity int64
	// Domain groups nodes for requests that need one (Request.OneDomain):
	// a rack, a switch, an NVLink domain. "" is no domain.
	Domain string
}

// Job is a running job's share of one node: a job on several nodes (a
// gang) appears once per node, with the same Victim.
type Job struct {
	// Victim is what the requeue engine needs to know about the job: its
	// ID, Priority, Start and Expected runtime (when it is expected to
	// end), NotBefore, LastCheckpoint and Resources (the work an eviction
	// would lose).
	requeue.Victim
	// Node is the node it runs on.
	Node string
	// Units is what it holds on Node. Negative is bad data: the node is then
	// never planned on.
	Units int64
	// ProtectedUntil is when its min-runtime protection ends (the Until of
	// the min-runtime filter's decision for a reclaim by the holder's
	// queue); zero for none.
	ProtectedUntil time.Time
}

// Request is a pending job that may hold a reservation or backfill onto
// reserved nodes.
type Request struct {
	// Contender is the job as the requeue engine sees it: ID, Priority,
	// Queue and Queued (when it started waiting).
	requeue.Contender
	// Tasks is how many nodes it needs, one task on each, Units on each.
	// Both must be at least 1.
	Tasks int
	Units int64
	// Expected is how long it runs once started: its expected runtime or
	// its declared time limit. 0 means unknown: the job never backfills.
	Expected time.Duration
	// MinRuntime is the min-runtime protection it gets when it starts: a
	// backfilled job must be evictable again by the reservation's start.
	MinRuntime time.Duration
	// OneDomain asks for nodes of one Node.Domain.
	OneDomain bool
}

// Input is what a [Planner] plans from: the scheduler's nodes, the jobs
// running on them, and the pending jobs in the queue order the scheduler
// serves them. A Planner neither modifies nor retains its slices.
type Input struct {
	Nodes   []Node
	Running []Job
	Pending []Request
}
