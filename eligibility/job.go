package eligibility

import (
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
)

// Job is a running (or recently running) job as tenure's eligibility
// decisions see it: a plain value holding only the fields a decision reads.
// The embedder fills it from its own object (a PodGroup, a Workload) once per
// scheduling cycle; the Job example shows a conversion.
//
// The zero Job is valid input: it is not running, not preemptible, has no
// queue (queuetree.None, the zero ID: the min-runtime decisions deny it
// with ReasonQueueUnset, fail closed, rather than guess its protection), no
// start time and no subgroups, and every decision about it returns a
// reason rather than panicking.
//
// Decisions never modify a Job and never retain a pointer to it.
type Job struct {
	// ID identifies the job in decisions, logs and metrics (for example
	// "namespace/name"). tenure never parses it.
	ID string
	// Queue is the job's leaf queue in the resolver's tree. Left unset
	// (queuetree.None) or set to an ID the tree did not issue, it makes
	// the min-runtime decisions fail closed: denied with ReasonQueueUnset
	// or ReasonUnknownQueue, unless their FailOpen field is set.
	Queue queuetree.ID
	// Priority is the job's scheduling priority; larger is more important.
	// The requeue engine orders nominations by it.
	Priority int32
	// Preemptible reports whether the scheduler may evict the job at all.
	Preemptible bool
	// Running reports whether the job has at least one active allocated
	// task (KAI: GetActiveAllocatedTasksCount() > 0). The nominator skips a
	// job that is not running with ReasonNotRunning.
	Running bool
	// Start is the job's last start: the instant it went from zero to a
	// positive number of allocated tasks. Elastic growth and shrink do not
	// reset it. The zero time means "unknown".
	Start time.Time
	// Resources is how much the job holds, in the embedder's unit (GPUs,
	// say). Only the expected-runtime nominator reads it: it passes it on
	// in its nominations (as Victim.Resources), where the requeue
	// engine's default cost rule weighs the work an eviction loses by it.
	// 0 means unknown.
	Resources float64
	// Subgroups lists the job's task groups with their minimums and current
	// active counts. A job without subgroups of its own (a plain gang) is
	// described by one Subgroup, conventionally named "".
	Subgroups []Subgroup
	// SubgroupsFunc, when set and Subgroups is nil, supplies the
	// subgroups on demand, so an embedder need not fill them for every
	// check: the min-runtime filter calls it only for a victim still
	// protected (once per check), the elastic scenario validator once per
	// distinct victim job of a scenario still protected (or whose
	// protection cannot be known). It must return the same subgroups
	// for the whole cycle; tenure does not modify or keep the slice.
	SubgroupsFunc func() []Subgroup
	// Annotations are the job's annotations (read-only here); the
	// expected-runtime nominator reads the keys of its Keys.
	Annotations map[string]string
}

// Subgroup is one task group of a [Job]: its name, the minimum number of
// tasks it needs to stay useful, and how many of its tasks are active
// (allocated and not already releasing) right now.
type Subgroup struct {
	// Name identifies the subgroup within its job; scenario tasks refer to it.
	Name string
	// MinAvailable is the minimum number of active tasks the subgroup needs.
	MinAvailable int32
	// Active is the number of the subgroup's tasks currently allocated.
	Active int32
}
